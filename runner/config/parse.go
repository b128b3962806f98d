package config

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	hmatcher "github.com/hookside/hookside/matcher"

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
// Other keys are ignored.
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
//   - an unknown event gives CodeUnknownEvent; a malformed matcher group or
//     hook gives CodeInvalidHook naming "path:line:col" of the entry; that
//     declaration is dropped and the rest loads.
//
// Limits in File.Hooks are resolved against this file and the defaults;
// use File.Resolve to apply the user config's limits as well.
func ParseFile(path string, data []byte, kind hook.SourceKind) (*File, []hook.Diagnostic) {
	f := &File{Path: path, Kind: kind}
	p := &parser{path: path, data: data, src: hook.Source{Kind: kind, Path: path}, plugin: false}
	root, ok := p.tree()
	if !ok {
		return f, p.diags
	}
	if root.kind != jObject {
		p.report(hook.CodeInvalidField, hook.SeverityError, root.off, "top-level value must be an object, got %s", root.kind)
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

// parser walks the events object of every dialect: hookside's own files
// (plugin=false, spark=false), Claude Code–shaped plugin hooks.json
// (plugin=true) and spark settings files (spark=true, also Claude Code–shaped).
type parser struct {
	path   string
	data   []byte
	src    hook.Source
	plugin bool
	spark  bool

	diags   []hook.Diagnostic
	hooks   []hook.Hook
	own     []hook.Limits
	rejects []Rejected
}

// claude reports whether the file is Claude Code–shaped (events directly
// under "hooks", handler type "command", timeout in seconds, exec-form args).
func (p *parser) claude() bool { return p.plugin || p.spark }

// reject records a declaration (hi >= 0), a matcher group (hi = -1) or a
// whole event (mi = hi = -1) that was dropped, for `hooks explain`.
func (p *parser) reject(off int, event string, mi, hi int, code, command, format string, args ...any) {
	p.rejects = append(p.rejects, Rejected{
		Kind: p.src.Kind, Path: p.path, Source: p.at(off), Event: event,
		MatcherIndex: mi, HookIndex: hi, Code: code, Command: command,
		Message: fmt.Sprintf(format, args...),
	})
}

func (p *parser) at(off int) string {
	line, col := lineCol(p.data, off)
	return p.path + ":" + strconv.Itoa(line) + ":" + strconv.Itoa(col)
}

func (p *parser) report(code, severity string, off int, format string, args ...any) {
	p.diags = append(p.diags, hook.Diagnostic{
		Code:     code,
		Severity: severity,
		Message:  fmt.Sprintf(format, args...),
		Source:   p.at(off),
	})
}

// tree parses p.data, reporting CodeParseError on failure.
func (p *parser) tree() (*jnode, bool) {
	root, err := parseTree(p.data)
	if err == nil {
		return root, true
	}
	var se *syntaxError
	off := len(p.data)
	if errors.As(err, &se) {
		off = se.off
	}
	p.report(hook.CodeParseError, hook.SeverityError, off, "invalid JSON: %s", err.Error())
	return nil, false
}

// events walks {"<Event>": [group, …], …}.
func (p *parser) events(ev *jnode) {
	for _, fl := range ev.fields {
		if p.spark && !hook.IsSparkEvent(fl.key) {
			p.report(hook.CodeSparkUnsupportedEvent, hook.SeverityWarning, fl.off, "event %q is not a spark event (spark has %s); its hooks are skipped", fl.key, strings.Join(hook.SparkEvents, ", "))
			p.reject(fl.off, fl.key, -1, -1, hook.CodeSparkUnsupportedEvent, "", "event %q is not a spark event", fl.key)
			continue
		}
		if !hook.IsEvent(fl.key) {
			p.reject(fl.off, fl.key, -1, -1, hook.CodeUnknownEvent, "", "event %q is not supported", fl.key)
			if p.plugin {
				p.report(hook.CodePluginUnsupportedEvent, hook.SeverityWarning, fl.off, "event %q is not supported (hookside has %s); its hooks are skipped", fl.key, strings.Join(hook.Events, ", "))
			} else {
				p.report(hook.CodeUnknownEvent, hook.SeverityError, fl.off, "unknown event %q (events are %s, case-sensitive); its hooks are dropped", fl.key, strings.Join(hook.Events, ", "))
			}
			continue
		}
		if !fl.val.present() {
			continue
		}
		if fl.val.kind != jArray {
			p.report(hook.CodeInvalidHook, hook.SeverityError, fl.val.off, "%s must be an array of matcher groups, got %s", fl.key, fl.val.kind)
			continue
		}
		for mi, g := range fl.val.elems {
			if p.spark && mi >= hook.SparkMaxMatchersPerEvent {
				p.report(hook.CodeSparkLimit, hook.SeverityError, g.off, "%s[%d]: more than %d matcher groups for one event; group dropped", fl.key, mi, hook.SparkMaxMatchersPerEvent)
				p.reject(g.off, fl.key, mi, -1, hook.CodeSparkLimit, "", "matcher group %d is over the limit of %d matcher groups per event", mi, hook.SparkMaxMatchersPerEvent)
				continue
			}
			p.group(fl.key, mi, g)
		}
	}
}

// group walks one {"matcher", "parallel", "hooks": [...]} entry.
func (p *parser) group(event string, mi int, g *jnode) {
	where := fmt.Sprintf("%s[%d]", event, mi)
	drop := func(at *jnode, format string, args ...any) {
		msg := fmt.Sprintf(format, args...)
		p.report(hook.CodeInvalidHook, hook.SeverityError, at.off, "%s: %s", where, msg)
		p.reject(at.off, event, mi, -1, hook.CodeInvalidHook, "", "%s", msg)
	}
	if g.kind != jObject {
		drop(g, "matcher group must be an object, got %s; dropped", g.kind)
		return
	}
	var matcher *string
	if m := g.get("matcher"); m.present() {
		if m.kind != jString {
			drop(m, "matcher must be a string, got %s; group dropped", m.kind)
			return
		}
		s := m.str
		matcher = &s
		if p.spark && event != hook.PreToolUse && event != hook.PostToolUse {
			// hooks-v2-handbook §1.3: matcher只对PreToolUse/PostToolUse生效.
			p.report(hook.CodeSparkMatcherIgnored, hook.SeverityWarning, m.off, "%s: matcher is ignored on %s (spark applies matchers to PreToolUse and PostToolUse only); the group runs for every %s", where, event, event)
		}
		// The spec (output.ts:98): a bad JavaScript regex matches nothing.
		// The group stays; the author gets told.
		if _, err := hmatcher.Compile(matcher); err != nil {
			p.report(hook.CodeInvalidMatcher, hook.SeverityWarning, m.off, "%s: %v; it matches nothing", where, err)
		}
	}
	parallel := false
	if v := g.get("parallel"); v.present() {
		if v.kind != jBool {
			drop(v, "parallel must be a boolean, got %s; group dropped", v.kind)
			return
		}
		parallel = v.b
	}
	hs := g.get("hooks")
	if !hs.present() {
		drop(g, "matcher group has no hooks array; dropped")
		return
	}
	if hs.kind != jArray {
		drop(hs, "hooks must be an array, got %s; group dropped", hs.kind)
		return
	}
	for hi, hn := range hs.elems {
		if p.spark && hi >= hook.SparkMaxCommandsPerMatcher {
			p.report(hook.CodeSparkLimit, hook.SeverityError, hn.off, "%s[%d]: more than %d commands in one matcher group; declaration dropped", where, hi, hook.SparkMaxCommandsPerMatcher)
			p.reject(hn.off, event, mi, hi, hook.CodeSparkLimit, commandOf(hn), "command %d is over the limit of %d commands per matcher group", hi, hook.SparkMaxCommandsPerMatcher)
			continue
		}
		h, own, ok := p.hook(fmt.Sprintf("%s[%d]", where, hi), hn, event, mi, hi)
		if !ok {
			continue
		}
		h.ID = hook.ID(p.src.Kind, p.path, event, mi, hi)
		h.Event = event
		h.Source = p.src
		h.Matcher = matcher
		h.MatcherIndex = mi
		h.HookIndex = hi
		h.Parallel = parallel
		p.hooks = append(p.hooks, h)
		p.own = append(p.own, own)
	}
}

// hook validates one declaration. It reports and returns ok=false when the
// declaration must be dropped.
func (p *parser) hook(where string, n *jnode, event string, mi, hi int) (h hook.Hook, own hook.Limits, ok bool) {
	bad := func(at *jnode, format string, args ...any) (hook.Hook, hook.Limits, bool) {
		p.report(hook.CodeInvalidHook, hook.SeverityError, at.off, where+": "+format+"; declaration dropped", args...)
		p.reject(at.off, event, mi, hi, hook.CodeInvalidHook, commandOf(n), format, args...)
		return hook.Hook{}, hook.Limits{}, false
	}
	limit := func(at *jnode, format string, args ...any) (hook.Hook, hook.Limits, bool) {
		p.report(hook.CodeSparkLimit, hook.SeverityError, at.off, where+": "+format+"; declaration dropped", args...)
		p.reject(at.off, event, mi, hi, hook.CodeSparkLimit, commandOf(n), format, args...)
		return hook.Hook{}, hook.Limits{}, false
	}
	if n.kind != jObject {
		return bad(n, "hook must be an object, got %s", n.kind)
	}
	t := n.get("type")
	switch {
	case !t.present():
		return bad(n, "missing type (%q or %q)", hook.TypeProcess, hook.TypeCommand)
	case t.kind != jString:
		return bad(t, "type must be a string, got %s", t.kind)
	case p.claude() && t.str != string(hook.TypeCommand):
		code := hook.CodePluginUnsupportedType
		if p.spark {
			code = hook.CodeSparkUnsupportedType
		}
		p.report(code, hook.SeverityWarning, t.off, "%s: hook type %q is not supported (only %q handlers run); skipped", where, t.str, hook.TypeCommand)
		p.reject(t.off, event, mi, hi, code, "", "handler type %q is not supported", t.str)
		return hook.Hook{}, hook.Limits{}, false
	case t.str != string(hook.TypeProcess) && t.str != string(hook.TypeCommand):
		return bad(t, "unknown type %q (want %q or %q)", t.str, hook.TypeProcess, hook.TypeCommand)
	}
	h.Type = hook.HookType(t.str)

	c := n.get("command")
	switch {
	case !c.present():
		return bad(n, "missing command")
	case c.kind != jString:
		return bad(c, "command must be a string, got %s", c.kind)
	case strings.TrimSpace(c.str) == "":
		return bad(c, "command is empty")
	case usesSkillDir(c.str):
		return bad(c, "command uses %s, which has no meaning in a hook (configuration error)", skillDirRef)
	case strings.ContainsRune(c.str, 0):
		return bad(c, "command contains a NUL character")
	}
	h.Command = c.str

	if a := n.get("args"); a.present() {
		if a.kind != jArray {
			return bad(a, "args must be an array of strings, got %s", a.kind)
		}
		h.Args = make([]string, 0, len(a.elems))
		for i, e := range a.elems {
			if e.kind != jString {
				return bad(e, "args[%d] must be a string, got %s", i, e.kind)
			}
			if usesSkillDir(e.str) {
				return bad(e, "args[%d] uses %s, which has no meaning in a hook (configuration error)", i, skillDirRef)
			}
			if strings.ContainsRune(e.str, 0) {
				return bad(e, "args[%d] contains a NUL character", i)
			}
			h.Args = append(h.Args, e.str)
		}
	}

	if p.spark {
		// hooks-v2-handbook §1.3: 单条命令上限 8192 字符 (JavaScript string
		// length: UTF-16 code units). In exec form the arguments count too,
		// each with one separating space, so the limit cannot be dodged.
		n16 := utf16Len(h.Command)
		for _, a := range h.Args {
			n16 += 1 + utf16Len(a)
		}
		if n16 > hook.SparkMaxCommandChars {
			return limit(c, "command is %d characters, over the spark limit of %d", n16, hook.SparkMaxCommandChars)
		}
	}
	if s := n.get("shell"); s.present() {
		switch {
		case s.kind == jBool && s.b:
			h.Shell = hook.ShellOfTrue
		case s.kind == jString && strings.TrimSpace(s.str) != "":
			// Checked now, not when the hook first runs.
			if err := hook.ShellProgram(s.str).Check(); err != nil {
				return bad(s, "shell %q cannot be split into a program and its arguments (unbalanced quote or escape?)", s.str)
			}
			h.Shell = hook.ShellProgram(s.str)
		default:
			return bad(s, "shell must be true or a non-empty shell command string")
		}
	}
	if v := n.get("async"); v.present() {
		if v.kind != jBool {
			return bad(v, "async must be a boolean, got %s", v.kind)
		}
		h.Async = v.b
	}
	if p.claude() {
		if v := n.get("timeout"); v.present() {
			ms, msg := positiveSeconds(v)
			if msg != "" {
				return bad(v, "timeout (seconds) %s", msg)
			}
			if p.spark && ms > hook.SparkMaxTimeoutMs {
				return limit(v, "timeout %s s is over the spark limit of %d ms", v.num, hook.SparkMaxTimeoutMs)
			}
			own.TimeoutMs = ms
		}
		if v := n.get("timeoutMs"); v.present() {
			p.report(hook.CodeIgnoredField, hook.SeverityWarning, v.off, "%s: timeoutMs is ignored in Claude Code–shaped files; use timeout (seconds)", where)
		}
	} else {
		if v := n.get("timeoutMs"); v.present() {
			ms, msg := positiveInt(v)
			if msg != "" {
				return bad(v, "timeoutMs %s", msg)
			}
			own.TimeoutMs = ms
		}
		if v := n.get("timeout"); v.present() {
			p.report(hook.CodeIgnoredField, hook.SeverityWarning, v.off, "%s: timeout is ignored in hookside files; use timeoutMs (milliseconds)", where)
		}
	}
	if v := n.get("maxOutputBytes"); v.present() {
		b, msg := positiveInt(v)
		if msg != "" {
			return bad(v, "maxOutputBytes %s", msg)
		}
		own.MaxOutputBytes = b
	}
	if v := n.get("enabled"); v.present() {
		if v.kind != jBool {
			return bad(v, "enabled must be a boolean, got %s", v.kind)
		}
		e := v.b
		h.Enabled = &e
	}
	if v := n.get("statusMessage"); v.present() {
		if v.kind != jString {
			return bad(v, "statusMessage must be a string, got %s", v.kind)
		}
		h.StatusMessage = v.str
	}

	if h.Type == hook.TypeProcess {
		// A process hook is exec'd directly: shell and async do not apply,
		// and the declaration digest leaves them out (PROTOCOL.md §4), so
		// they are cleared rather than half-honoured.
		if s := n.get("shell"); s.present() {
			p.report(hook.CodeIgnoredField, hook.SeverityWarning, s.off, "%s: shell is ignored for a process hook (it is never run through a shell)", where)
			h.Shell = hook.Shell{}
		}
		if v := n.get("async"); v.present() && h.Async {
			p.report(hook.CodeIgnoredField, hook.SeverityWarning, v.off, "%s: async applies to command hooks only; ignored", where)
			h.Async = false
		}
	} else if a := n.get("args"); a.present() && p.claude() {
		// Exec form (Claude Code–shaped files): command is the executable
		// and args its arguments, started without a shell. hookside runs it
		// as a process hook, so the declaration digest covers the args
		// (PROTOCOL.md §4). async keeps its meaning.
		if s := n.get("shell"); s.present() {
			p.report(hook.CodeIgnoredField, hook.SeverityWarning, s.off, "%s: shell is ignored for an exec-form command (command with args is never run through a shell)", where)
			h.Shell = hook.Shell{}
		}
		h.Type = hook.TypeProcess
		h.Shell = hook.Shell{}
	} else if a := n.get("args"); a.present() && len(h.Args) > 0 {
		// A command hook's string goes to the shell whole (ARCHITECTURE.md,
		// runner); args would be silently unused, and the declaration
		// digest does not cover them (PROTOCOL.md §4). Cleared, so Hook
		// shows what runs.
		p.report(hook.CodeIgnoredField, hook.SeverityWarning, a.off, "%s: args are ignored for a command hook (the command string goes to the shell whole); put them in command", where)
		h.Args = nil
	}
	return h, own, true
}

// maxLimit bounds timeouts (ms) and output caps (bytes): 2^31-1.
const maxLimit = math.MaxInt32

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
