package config

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/internal/jsonpos"
	"github.com/hookside/hookside/internal/nearmiss"
	hmatcher "github.com/hookside/hookside/matcher"
)

// parser walks the events object of a file written in one dialect
// (src.Dialect): the dialect's rules decide which events, handler types,
// timeout key and limits apply.
type parser struct {
	path string
	data []byte
	src  hook.Source

	diags   []hook.Diagnostic
	hooks   []hook.Hook
	own     []hook.Limits
	rejects []Rejected
	// matcher is the matcher of the group being walked (nil: none or not
	// yet read), given to the declarations of that group it rejects.
	matcher *string
	// pos locates offsets of data (built on the first p.at): every
	// declaration records its line and column, so one scan from the start
	// per declaration would make a file of n declarations cost n².
	pos *jsonpos.Index
}

// reject records a declaration (hi >= 0), a matcher group (hi = -1) or a
// whole event (mi = hi = -1) that was dropped, for `hooks explain`.
func (p *parser) reject(off int, event string, mi, hi int, code, command, format string, args ...any) {
	r := Rejected{
		Kind: p.src.Kind, Path: p.path, Source: p.at(off), Event: event,
		MatcherIndex: mi, HookIndex: hi, Code: code, Command: command,
		Message: fmt.Sprintf(format, args...),
	}
	if hi >= 0 {
		r.Matcher = p.matcher
	}
	p.rejects = append(p.rejects, r)
}

func (p *parser) at(off int) string {
	return p.index().At(p.path, off)
}

// index is p.pos, built on first use.
func (p *parser) index() *jsonpos.Index {
	if p.pos == nil {
		p.pos = jsonpos.NewIndex(p.data)
	}
	return p.pos
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
		if off, bad := jsonpos.InvalidUTF8(p.data); bad {
			p.report(hook.CodeInvalidUTF8, hook.SeverityWarning, off,
				"byte 0x%02x is not UTF-8 (a JSON file must be UTF-8, RFC 8259 §8.1: saved as Latin-1?); every such byte reads as U+FFFD, so a command or matcher holding one is not what the file shows", p.data[off])
		}
		p.duplicateKeys(root)
		return root, true
	}
	var se *syntaxError
	off, msg := len(p.data), err.Error()
	if errors.As(err, &se) {
		off, msg = jsonpos.SyntaxMessage(p.data, se.off, se.msg)
	}
	p.report(hook.CodeParseError, hook.SeverityError, off, "invalid JSON: %s", msg)
	return nil, false
}

// MaxFileEntries bounds the matcher groups, and separately the hook
// declarations, of one file (all its events together; an event whose
// value is not an array counts as one group). Every declaration costs a
// digest, a shell parse and script pins at each trust review, listing and
// session start, so a cloned repository whose file held hundreds of
// thousands could stall them for minutes; 2048 is what the largest spark
// settings file may run (4 events × 32 groups × 16 commands) and far above
// any hand-written file.
const MaxFileEntries = 2048

// MaxPluginDirs bounds the plugins.dirs entries of one file: each plugin's
// hooks.json may hold MaxFileEntries declarations, so a file naming
// hundreds of them would again make a review take minutes. A file over it
// loads none of them (CodeTooManyHooks at the first entry over).
const MaxPluginDirs = 16

// maxFileEntries is the limit tooMany applies: MaxFileEntries, raised by
// the tests and benchmarks that measure the cost of more declarations.
var maxFileEntries = MaxFileEntries

// events walks {"<Event>": [group, …], …}. A file over MaxFileEntries gets
// one CodeTooManyHooks error at its first entry over the limit and loads no
// hooks at all: a partial load would run a set of hooks nobody wrote.
func (p *parser) events(ev *jnode) {
	if p.tooMany(ev) {
		return
	}
	d := p.src.Dialect
	for _, fl := range ev.fields {
		if !d.HasEvent(fl.key) {
			r := d.UnsupportedEvent
			msg := fmt.Sprintf(r.Message, fl.key, strings.Join(d.Events, ", ")) + EventHint(fl.key, d.Events, p.eventPlace())
			p.report(r.Code, r.Severity, fl.off, "%s", msg)
			// An empty list or null declares no hook that cannot run: the
			// diagnostic alone says the key is wrong.
			if fl.val.present() && !(fl.val.kind == jArray && len(fl.val.elems) == 0) {
				p.reject(fl.off, fl.key, -1, -1, r.RejectCode, "", r.RejectMessage, fl.key)
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
			if max := d.Limits.MaxMatchersPerEvent; max > 0 && mi >= max {
				p.report(hook.CodeSparkLimit, hook.SeverityError, g.off, "%s[%d]: more than %d matcher groups for one event; group dropped", fl.key, mi, max)
				p.reject(g.off, fl.key, mi, -1, hook.CodeSparkLimit, "", "matcher group %d is over the limit of %d matcher groups per event", mi, max)
				continue
			}
			p.group(fl.key, mi, g)
		}
	}
}

// tooMany reports CodeTooManyHooks when the events object ev holds more
// than MaxFileEntries matcher groups or hook declarations.
func (p *parser) tooMany(ev *jnode) bool {
	groups, decls := 0, 0
	for _, fl := range ev.fields {
		if !fl.val.present() {
			continue
		}
		if fl.val.kind != jArray {
			if groups++; groups > maxFileEntries {
				p.report(hook.CodeTooManyHooks, hook.SeverityError, fl.val.off, "%s: more than %d matcher groups in one file; none of this file's hooks are loaded", fl.key, maxFileEntries)
				return true
			}
			continue
		}
		for mi, g := range fl.val.elems {
			if groups++; groups > maxFileEntries {
				p.report(hook.CodeTooManyHooks, hook.SeverityError, g.off, "%s[%d]: more than %d matcher groups in one file; none of this file's hooks are loaded", fl.key, mi, maxFileEntries)
				return true
			}
			hs := g.get("hooks")
			if g.kind != jObject || !hs.present() || hs.kind != jArray {
				continue
			}
			if decls+len(hs.elems) > maxFileEntries {
				hi := maxFileEntries - decls
				p.report(hook.CodeTooManyHooks, hook.SeverityError, hs.elems[hi].off, "%s[%d][%d]: more than %d hook declarations in one file; none of this file's hooks are loaded", fl.key, mi, hi, maxFileEntries)
				return true
			}
			decls += len(hs.elems)
		}
	}
	return false
}

// eventPlace is the EventPlace of an event key of the file p parses: a
// plugin's hooks.json, a hookside file, or a spark or Claude Code settings
// file.
func (p *parser) eventPlace() EventPlace {
	switch {
	case p.src.Kind == hook.SourcePlugin:
		return EventPluginKey
	case !p.src.Dialect.ClaudeShaped:
		return EventConfigKey
	}
	return EventSettingsKey
}

// group walks one {"matcher", "parallel", "hooks": [...]} entry.
func (p *parser) group(event string, mi int, g *jnode) {
	p.matcher = nil
	defer func() { p.matcher = nil }()
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
	p.unknownKeys(where, g, groupKeys, nil)
	var matcher *string
	if m := g.get("matcher"); m.present() {
		if m.kind != jString {
			drop(m, "matcher must be a string, got %s; group dropped", m.kind)
			return
		}
		s := m.str
		matcher = &s
		p.matcher = matcher
		// "" and "*" mean "every event" (Claude Code: "*", "" or omitted
		// match all), so they say nothing on any event.
		switch d := p.src.Dialect; {
		case d.MatcherApplies(event) || s == "" || s == "*":
		case d == hook.Claude:
			p.report(hook.CodeClaudeMatcherIgnored, hook.SeverityWarning, m.off, "%s: matcher %q is ignored: %s takes no matcher in Claude Code; the group runs for every %s", where, s, event, event)
		default:
			// hooks-v2-handbook §1.3: matcher只对PreToolUse/PostToolUse生效.
			p.report(hook.CodeSparkMatcherIgnored, hook.SeverityWarning, m.off, "%s: matcher is ignored on %s (%s applies matchers to %s only); the group runs for every %s", where, event, d.Name, strings.Join(d.MatcherEvents, " and "), event)
		}
		// The spec (output.ts:98): a bad JavaScript regex matches nothing.
		// The group stays; the author gets told.
		rules := hmatcher.Lifecycle
		if p.src.Dialect.MatcherFields != nil {
			rules = hmatcher.ClaudeRulesFor(event)
		}
		if _, err := hmatcher.CompileRules(matcher, rules); err != nil {
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
		if max := p.src.Dialect.Limits.MaxCommandsPerMatcher; max > 0 && hi >= max {
			p.report(hook.CodeSparkLimit, hook.SeverityError, hn.off, "%s[%d]: more than %d commands in one matcher group; declaration dropped", where, hi, max)
			p.reject(hn.off, event, mi, hi, hook.CodeSparkLimit, commandOf(hn), "command %d is over the limit of %d commands per matcher group", hi, max)
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
	d := p.src.Dialect
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
	other := d.OtherTimeoutKey()
	// A declaration refused for its type gets that one diagnostic: its keys
	// that some dialect knows (the type's own fields) are not reported too.
	refused := refusedType(d, n)
	p.unknownKeys(where, n, handlerKeys(d), func(k string) bool { return k == other || refused && anyDialectKey(k) })
	if v := n.get(other); v.present() && !refused {
		p.report(hook.CodeIgnoredField, hook.SeverityWarning, v.off, "%s: %s is ignored in %s; use %s", where, other, fileKind(d), timeoutName(d))
	}
	// Claude Code's onFailure ("block": a hook that cannot start, times out
	// or exits with an unexpected code blocks the action) is accepted as a
	// known key of Claude Code–shaped files, but hookside does not act on it.
	if i := slices.IndexFunc(n.fields, func(f jfield) bool { return f.key == "onFailure" }); i >= 0 && d.ClaudeShaped && !refused {
		p.report(hook.CodeIgnoredField, hook.SeverityWarning, n.fields[i].off, "%s: onFailure has no effect in hookside: a hook that fails to start, times out or exits with an unexpected code is handled as without it", where)
	}
	t := n.get("type")
	switch {
	case !t.present():
		return bad(n, "missing type (%s)", typeChoices(d, ""))
	case t.kind != jString:
		return bad(t, "type must be a string, got %s", t.kind)
	case !d.Runs(hook.HookType(t.str)) && d.UnsupportedType.KnownOnly && !hook.IsKnownType(hook.HookType(t.str)):
		return bad(t, "unknown type %q (%s)", t.str, typeChoices(d, t.str))
	case !d.Runs(hook.HookType(t.str)) && d.UnsupportedType.Code != "":
		r := d.UnsupportedType
		p.report(r.Code, r.Severity, t.off, where+": "+r.Message, t.str)
		p.reject(t.off, event, mi, hi, r.RejectCode, "", r.RejectMessage, t.str)
		return hook.Hook{}, hook.Limits{}, false
	case p.typeNotOnEvent(where, t, event, hook.HookType(t.str), mi, hi):
		return hook.Hook{}, hook.Limits{}, false
	case t.str == string(hook.TypeHTTP) && d.Runs(hook.TypeHTTP):
		return p.httpHandler(where, n, event, mi, hi)
	case hook.IsDelegated(hook.HookType(t.str)) && d.Runs(hook.HookType(t.str)):
		return p.delegatedHandler(where, n, event, hook.HookType(t.str), mi, hi)
	case t.str != string(hook.TypeProcess) && t.str != string(hook.TypeCommand) && hook.IsKnownType(hook.HookType(t.str)):
		return bad(t, "hook type %q does not run in %s (want %q or %q)", t.str, fileKind(d), hook.TypeProcess, hook.TypeCommand)
	case t.str != string(hook.TypeProcess) && t.str != string(hook.TypeCommand):
		return bad(t, "unknown type %q (%s)", t.str, typeChoices(d, t.str))
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
	h.At = p.at(c.off)

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

	if max := d.Limits.MaxCommandChars; max > 0 {
		// hooks-v2-handbook §1.3: 单条命令上限 8192 字符 (JavaScript string
		// length: UTF-16 code units). In exec form the arguments count too,
		// each with one separating space, so the limit cannot be dodged.
		n16 := utf16Len(h.Command)
		for _, a := range h.Args {
			n16 += 1 + utf16Len(a)
		}
		if n16 > max {
			return limit(c, "command is %d characters, over the %s limit of %d", n16, d.Name, max)
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
	if v := n.get(d.TimeoutKey); v.present() {
		ms, msg := timeoutOf(v, d.TimeoutUnitMs)
		if msg != "" {
			return bad(v, "%s %s", badTimeoutLabel(d), msg)
		}
		if max := d.Limits.MaxTimeoutMs; max > 0 && ms > max {
			return limit(v, "%s %s is over the %s limit of %s", d.TimeoutKey, string(v.num)+unitSuffix(d), d.Name, inUnit(max, d))
		}
		own.TimeoutMs = ms
	}
	if own.TimeoutMs == 0 {
		own.TimeoutMs = d.TimeoutFor(event)
	}
	if v := n.get("maxOutputBytes"); v.present() {
		b, msg := positiveInt(v)
		if msg != "" {
			return bad(v, "maxOutputBytes %s", msg)
		}
		own.MaxOutputBytes = b
	}
	if own.MaxOutputBytes == 0 {
		own.MaxOutputBytes = d.MaxOutputBytes
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
	if d.HandlerExtras {
		if msg, at := p.claudeExtras(where, n, event, &h); msg != "" {
			return bad(at, "%s", msg)
		}
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
	} else if a := n.get("args"); a.present() && d.ExecForm {
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

// timeoutOf reads a timeout written in units of unitMs milliseconds:
// whole milliseconds (unitMs 1, positiveInt) or seconds with fractions
// (unitMs 1000, positiveSeconds).
func timeoutOf(n *jnode, unitMs int) (int, string) {
	if unitMs == 1000 {
		return positiveSeconds(n)
	}
	return positiveInt(n)
}

// timeoutName is the timeout key with its unit, for messages.
func timeoutName(d *hook.Dialect) string {
	if d.TimeoutUnitMs == 1000 {
		return d.TimeoutKey + " (seconds)"
	}
	return d.TimeoutKey + " (milliseconds)"
}

// badTimeoutLabel names the timeout key in an invalid-value message.
func badTimeoutLabel(d *hook.Dialect) string {
	if d.TimeoutUnitMs == 1000 {
		return timeoutName(d)
	}
	return d.TimeoutKey
}

func unitSuffix(d *hook.Dialect) string {
	if d.TimeoutUnitMs == 1000 {
		return " s"
	}
	return " ms"
}

// inUnit is the duration ms in the unit of d's timeout key, with its
// suffix ("600 s", "600000 ms"), so that a limit reads in the unit the
// author wrote the timeout in.
func inUnit(ms int, d *hook.Dialect) string {
	if d.TimeoutUnitMs == 1000 {
		return strconv.FormatFloat(float64(ms)/1000, 'f', -1, 64) + " s"
	}
	return strconv.Itoa(ms) + " ms"
}

// fileKind names the files of a dialect's shape, for messages.
func fileKind(d *hook.Dialect) string {
	if d.ClaudeShaped {
		return "Claude Code–shaped files"
	}
	return "hookside files"
}

// typeChoices is the handler types d runs, for a message, with the one
// typ misspells (nearmiss.Suggest; typ "" for none): `want "process" or
// "command"`, `want "command" or "http"; did you mean "command"?`.
func typeChoices(d *hook.Dialect, typ string) string {
	names := make([]string, len(d.HandlerTypes))
	q := make([]string, len(d.HandlerTypes))
	for i, t := range d.HandlerTypes {
		names[i], q[i] = string(t), strconv.Quote(string(t))
	}
	out := "want " + q[0]
	if n := len(q); n > 1 {
		out = "want " + strings.Join(q[:n-1], ", ") + " or " + q[n-1]
	}
	if s := nearmiss.Suggest(typ, names); typ != "" && s != "" {
		out += fmt.Sprintf("; did you mean %q?", s)
	}
	return out
}
