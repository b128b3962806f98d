package config

import (
	"fmt"
	"math"
	"strconv"

	"github.com/hookside/hookside/internal/hook"
)

// File is one parsed hookside-shaped configuration file: the user config
// (<home>/config.json) or a workspace file (zcode.json, .zcode/config.json),
// shape per lifecycle-hooks-and-workspace-trust §"配置格式与默认值":
//
//	{"hooks": {"enabled": bool, "timeoutMs": int, "maxOutputBytes": int,
//	  "events": {"<Event>": [{"matcher": string, "parallel": bool,
//	    "hooks": [{"type": "process"|"command", "command": string,
//	      "args": [string], "shell": true|string, "async": bool,
//	      "timeoutMs": int, "maxOutputBytes": int, "enabled": bool,
//	      "statusMessage": string}]}]}},
//	 "storage": {"dir": string}}
//
// Other top-level keys are ignored. Any other key of "hooks", of a matcher
// group or of a declaration is reported with CodeIgnoredField (warning) at
// the key, naming the known key it most likely misspells.
type File struct {
	// Path is the file's path as given to ParseFile.
	Path string
	// Kind is the source kind given to ParseFile.
	Kind hook.SourceKind
	// Enabled is hooks.enabled as written; nil when absent (or invalid).
	Enabled *bool
	// Limits holds hooks.timeoutMs and hooks.maxOutputBytes as written;
	// zero when absent (or invalid).
	Limits hook.Limits
	// StorageDir is storage.dir as written ("" when absent); resolving a
	// relative value against the home directory is the trust store's job.
	StorageDir string
	// PluginDirs is plugins.dirs as written (paths relative to the file's
	// directory or absolute). In a workspace file they are workspace
	// declarations that need trust, never plugins that bypass it
	// (spec/README.md: a gap hookside closes).
	PluginDirs []string
	// Hooks are the valid declarations in declaration order (events in the
	// order the file lists them, then matcher groups, then hooks), with ID,
	// Source{Kind, Path}, Event, MatcherIndex, HookIndex (positions in the
	// file's arrays, counting dropped siblings, so IDs stay stable) and
	// limits resolved by Resolve(Limits{}). Declarations with enabled:false
	// are included (Hook.Enabled says so); the file-level Enabled is not
	// applied. Workspace callers set Source.RelativePath and
	// Source.DiscoveryOrder themselves.
	Hooks []hook.Hook

	// Rejected are the declarations the file holds that were dropped
	// (invalid, unknown event), for `hooks explain`.
	Rejected []Rejected

	// own[i] is Hooks[i]'s own timeoutMs/maxOutputBytes (zero = not set).
	own []hook.Limits
}

// Resolve returns a copy of f.Hooks with TimeoutMs and MaxOutputBytes
// resolved in this order (the spec cites workspace-hook-config.ts:113):
//
//  1. the declaration's own timeoutMs / maxOutputBytes;
//  2. this file's hooks.timeoutMs / hooks.maxOutputBytes;
//  3. fallback — for a workspace file, the user config's hooks.* (see
//     Set.UserLimits); zero fields are skipped;
//  4. DefaultTimeoutMs (60000 ms) / DefaultMaxOutputBytes (32768 bytes).
//
// Each limit is resolved independently. A nil File resolves to nil.
func (f *File) Resolve(fallback hook.Limits) []hook.Hook {
	if f == nil {
		return nil
	}
	return resolveHooks(f.Hooks, f.own, f.Limits.Or(fallback))
}

// resolveHooks copies hooks with own[i] over fileLimits (which must be
// complete). A hook without an own entry keeps the file's limits.
func resolveHooks(hooks []hook.Hook, own []hook.Limits, fileLimits hook.Limits) []hook.Hook {
	if hooks == nil {
		return nil
	}
	out := make([]hook.Hook, len(hooks))
	for i, h := range hooks {
		var o hook.Limits
		if i < len(own) {
			o = own[i]
		}
		r := o.Or(fileLimits)
		h.TimeoutMs, h.MaxOutputBytes = r.TimeoutMs, r.MaxOutputBytes
		out[i] = h
	}
	return out
}

// ParseFile parses one hookside-shaped configuration file (see File) read
// from path; kind is SourceUser or SourceWorkspace and becomes the hooks'
// Source.Kind and the first part of their IDs. It never panics and never
// fails as a whole:
//
//   - malformed JSON gives one CodeParseError diagnostic whose Source is
//     "path:line:col" (1-based; column in characters) and a File with no
//     hooks;
//   - a malformed file-level field gives CodeInvalidField and is ignored;
//   - an unknown key of "hooks", a matcher group or a declaration gives
//     CodeIgnoredField (warning) at the key, with a suggestion;
//   - an unknown event gives CodeUnknownEvent; a malformed matcher group or
//     hook gives CodeInvalidHook naming "path:line:col" of the entry; that
//     declaration is dropped and the rest loads.
//
// Limits in File.Hooks are resolved against this file and the defaults;
// use File.Resolve to apply the user config's limits as well.
func ParseFile(path string, data []byte, kind hook.SourceKind) (*File, []hook.Diagnostic) {
	f := &File{Path: path, Kind: kind}
	p := &parser{path: path, data: data, src: hook.Source{Kind: kind, Path: path, Dialect: hook.Zcode}}
	root, ok := p.tree()
	if !ok {
		return f, p.diags
	}
	if root.kind != jObject {
		p.report(hook.CodeInvalidField, hook.SeverityError, root.off, NotAnObject+", got %s", root.kind)
		return f, p.diags
	}
	if st := root.get("storage"); st.present() {
		if st.kind != jObject {
			p.report(hook.CodeInvalidField, hook.SeverityError, st.off, "storage must be an object, got %s", st.kind)
		} else if d := st.get("dir"); d.present() {
			if d.kind != jString {
				p.report(hook.CodeInvalidField, hook.SeverityError, d.off, "storage.dir must be a string, got %s", d.kind)
			} else {
				f.StorageDir = d.str
			}
		}
	}
	if pl := root.get("plugins"); pl.present() {
		if ds := pl.get("dirs"); pl.kind == jObject && ds.present() {
			if ds.kind != jArray {
				p.report(hook.CodeInvalidField, hook.SeverityError, ds.off, "plugins.dirs must be an array of strings, got %s", ds.kind)
			} else if len(ds.elems) > MaxPluginDirs {
				p.report(hook.CodeTooManyHooks, hook.SeverityError, ds.elems[MaxPluginDirs].off, "plugins.dirs[%d]: more than %d plugin directories in one file; none of them are loaded", MaxPluginDirs, MaxPluginDirs)
			} else {
				for _, d := range ds.elems {
					if d.kind != jString || d.str == "" {
						p.report(hook.CodeInvalidField, hook.SeverityError, d.off, "plugins.dirs entries must be non-empty strings")
						continue
					}
					f.PluginDirs = append(f.PluginDirs, d.str)
				}
			}
		}
	}
	hooks := root.get("hooks")
	if !hooks.present() {
		return f, p.diags
	}
	if hooks.kind != jObject {
		p.report(hook.CodeInvalidField, hook.SeverityError, hooks.off, "hooks must be an object, got %s", hooks.kind)
		return f, p.diags
	}
	if e := hooks.get("enabled"); e.present() {
		if e.kind != jBool {
			p.report(hook.CodeInvalidField, hook.SeverityError, e.off, "hooks.enabled must be a boolean, got %s", e.kind)
		} else {
			v := e.b
			f.Enabled = &v
		}
	}
	if n := hooks.get("timeoutMs"); n.present() {
		if v, msg := positiveInt(n); msg != "" {
			p.report(hook.CodeInvalidField, hook.SeverityError, n.off, "hooks.timeoutMs %s; the default applies", msg)
		} else {
			f.Limits.TimeoutMs = v
		}
	}
	if n := hooks.get("maxOutputBytes"); n.present() {
		if v, msg := positiveInt(n); msg != "" {
			p.report(hook.CodeInvalidField, hook.SeverityError, n.off, "hooks.maxOutputBytes %s; the default applies", msg)
		} else {
			f.Limits.MaxOutputBytes = v
		}
	}
	p.unknownKeys("hooks", hooks, hooksKeys, hook.IsEvent)
	for _, fl := range hooks.fields {
		if hook.IsEvent(fl.key) {
			p.report(hook.CodeIgnoredField, hook.SeverityWarning, fl.off, "event %q must be declared under hooks.events, not directly under hooks (that is the Claude Code settings shape)", fl.key)
		}
	}
	if ev := hooks.get("events"); ev.present() {
		if ev.kind != jObject {
			p.report(hook.CodeInvalidField, hook.SeverityError, ev.off, "hooks.events must be an object, got %s", ev.kind)
		} else {
			p.events(ev)
		}
	}
	f.Hooks = resolveHooks(p.hooks, p.own, f.Limits.Or(hook.Limits{}))
	f.own = p.own
	f.Rejected = p.rejects
	return f, p.diags
}

// maxLimit bounds timeouts (ms) and output caps (bytes): 2^31-1.
const maxLimit = math.MaxInt32

// NotAnObject begins the config_invalid_field error of a file whose top
// level is JSON but not an object ("…, got array"): a file that is no
// configuration, which declares nothing that could be loaded.
const NotAnObject = "top-level value must be an object"

// positiveInt accepts a JSON number that is a whole number in 1..2^31-1
// (5000 and 5000.0 alike, as JavaScript would). msg describes the problem.
func positiveInt(n *jnode) (int, string) {
	if n.kind != jNumber {
		return 0, "must be a positive integer, got " + n.kind.String()
	}
	if v, err := strconv.ParseInt(string(n.num), 10, 64); err == nil {
		if v <= 0 || v > maxLimit {
			return 0, fmt.Sprintf("must be between 1 and %d, got %d", maxLimit, v)
		}
		return int(v), ""
	}
	f, err := strconv.ParseFloat(string(n.num), 64)
	if err != nil || f != math.Trunc(f) {
		return 0, "must be a positive integer, got " + string(n.num)
	}
	if f <= 0 || f > maxLimit {
		return 0, fmt.Sprintf("must be between 1 and %d, got %s", maxLimit, n.num)
	}
	return int(f), ""
}

// positiveSeconds converts a Claude Code timeout in seconds (fractions
// allowed) to whole milliseconds, rounding to nearest; the result must be in
// 1..2^31-1 ms.
func positiveSeconds(n *jnode) (int, string) {
	if n.kind != jNumber {
		return 0, "must be a positive number, got " + n.kind.String()
	}
	f, err := strconv.ParseFloat(string(n.num), 64)
	if err != nil {
		return 0, "must be a positive number, got " + string(n.num)
	}
	ms := math.Round(f * 1000)
	if !(ms >= 1 && ms <= maxLimit) {
		return 0, fmt.Sprintf("must be between 0.001 and %d seconds, got %s", maxLimit/1000, n.num)
	}
	return int(ms), ""
}
