package runner

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/google/shlex"
	"mvdan.cc/sh/v3/syntax"

	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/runner/config"
)

// scriptInterpreters are the interpreters whose first operand, in a command
// hook's line, is a script file (the shells, python, perl, ruby) or may be
// one (node, deno and bun, whose first operand may also be a subcommand or
// a package.json script: only an operand with a path separator or a script
// extension counts). The value is the exit status the interpreter gives
// when that file does not exist; sh's depends on the system (dash: 2,
// bash as sh: 127) and is 0 here.
var scriptInterpreters = map[string]int{
	"sh": 0, "dash": 2, "bash": 127, "zsh": 127,
	"python": 2, "perl": 2, "ruby": 1,
	"node": 1, "nodejs": 1, "deno": 1, "bun": 1,
}

// scriptNotFound is why a command hook fails on every run: the script its
// interpreter is given does not exist.
type scriptNotFound struct {
	event  string
	interp string // as written: "python3"
	word   string // the operand as written (expanded): "./missing.py"
	path   string // absolute, resolved against the session directory
	status int    // scriptInterpreters
}

func (e *scriptNotFound) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s script %s does not exist", e.interp, e.word)
	if e.path != e.word {
		fmt.Fprintf(&b, " (resolved against the session directory: %s)", e.path)
	}
	switch e.status {
	case 2:
		fmt.Fprintf(&b, "; %s exits 2 when its script is missing, and exit 2 blocks: %s", e.interp, exit2Effect(e.event))
	case 0:
		fmt.Fprintf(&b, "; sh exits 2 when its script is missing where sh is dash (Debian, Ubuntu), and exit 2 blocks: %s; where sh is bash (macOS) it exits 127 and the hook fails open", exit2Effect(e.event))
	default:
		fmt.Fprintf(&b, "; %s exits %d when its script is missing: the hook fails open on every run, checking nothing", e.interp, e.status)
	}
	return b.String()
}

// exit2Effect is what an exit status 2 does on event (docs/events.md,
// "What exit 2 does per event").
func exit2Effect(event string) string {
	switch event {
	case hook.PreToolUse:
		return "every tool call the hook matches is denied"
	case hook.PermissionRequest:
		return "every permission request the hook matches is denied"
	case hook.UserPromptSubmit:
		return "every prompt is blocked"
	case hook.Stop:
		return "every stop becomes a request to continue the turn"
	}
	return "the run is marked blocked on every " + event
}

// commandScriptProblem is why the command hook h fails on every run
// because its line is `INTERPRETER [OPTIONS] SCRIPT …` (scriptInterpreters)
// and SCRIPT, resolved against the session directory, lies under the
// session directory, the workspace root or the user's home (hookside's or
// the hook's HOME; as checkProcess's script arguments) and does not
// exist: a *scriptNotFound. nil when the line is not that simple
// (commandWords), or the script is there.
func (s *Session) commandScriptProblem(h *hook.Hook) error {
	words, home, ok := s.commandWords(h)
	if !ok {
		return nil
	}
	sc, ok := s.scriptOf(words, home)
	if !ok {
		return nil
	}
	if _, err := os.Stat(sc.path); !errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return &scriptNotFound{event: h.Event, interp: sc.interp, word: sc.word, path: sc.path, status: sc.status}
}

// commandWords are the words of the command hook h's line, ${VAR}
// expanded, when it is one simple command (simpleWords) run by a POSIX
// shell as `SHELL -c` (posixShell), and the hook's HOME when it is
// absolute ("" otherwise). ok false for any other hook or line.
func (s *Session) commandWords(h *hook.Hook) (words []string, home string, ok bool) {
	if h.Type != hook.TypeCommand || !posixShell(h.Shell) {
		return nil, "", false
	}
	vars, _ := s.hookVars(h)
	line, err := config.Expand(h.Command, vars)
	if err != nil {
		return nil, "", false
	}
	home = s.hookHome()
	words, ok = simpleWords(line, vars, home)
	return words, home, ok && len(words) > 0
}

// hookHome is the HOME a hook gets (the session's env may set it) when it
// is an absolute path, "" otherwise (unset on Windows, or a form this OS
// does not resolve).
func (s *Session) hookHome() string {
	home, _ := s.lookupEnv("HOME")
	if !filepath.IsAbs(home) {
		return ""
	}
	return home
}

// interpScript is the script file an interpreter is given on a hook's
// command line (scriptOf).
type interpScript struct {
	name   string // the key of scriptInterpreters: "python" for python3
	interp string // as written: "python3", "/usr/bin/bash"
	word   string // the operand as written (expanded): "./missing.py"
	path   string // absolute, resolved against the session directory
	status int    // scriptInterpreters
}

// scriptOf is the script of words (a command line: the words of a simple
// command, or a process hook's argv) when words[0] is one of
// scriptInterpreters and its first operand past its options
// (scriptOperand) is a script file that, resolved against the session
// directory, lies under the session directory, the workspace root, home
// (the hook's, "" when unknown) or hookside's home. ok false otherwise.
func (s *Session) scriptOf(words []string, home string) (interpScript, bool) {
	if len(words) < 2 {
		return interpScript{}, false
	}
	interp := words[0]
	name := strings.ToLower(strings.TrimSuffix(interp[strings.LastIndexAny(interp, `/\`)+1:], ".exe"))
	if strings.HasPrefix(name, "python") && strings.Trim(name[len("python"):], "0123456789.") == "" {
		name = "python"
	}
	status, known := scriptInterpreters[name]
	if !known {
		return interpScript{}, false
	}
	word, ok := scriptOperand(name, words[1:])
	if !ok {
		return interpScript{}, false
	}
	switch name {
	case "node", "nodejs", "deno", "bun":
		if !strings.ContainsAny(word, `/\`) && !scriptExts[strings.ToLower(filepath.Ext(word))] {
			return interpScript{}, false // a subcommand (node inspect) or a package.json script (bun dev)
		}
	}
	p := word
	if !filepath.IsAbs(p) {
		p = filepath.Join(s.opts.Cwd, p)
	}
	roots := []string{s.opts.Cwd, s.wsRoot()}
	if home != "" {
		roots = append(roots, home)
	}
	if own, err := os.UserHomeDir(); err == nil {
		roots = append(roots, own)
	}
	if !underAny(p, roots) {
		return interpScript{}, false
	}
	return interpScript{name: name, interp: interp, word: word, path: p, status: status}, true
}

// posixShell reports whether the command hook's shell runs its line as a
// POSIX shell does in the session directory: unset or true (sh -c; Git
// Bash on Windows), or a shell string naming sh, bash, dash or zsh alone
// or followed by -c only (a login shell, `bash -lc`, may change directory
// in its profile).
func posixShell(sh hook.Shell) bool {
	if sh.Kind() != hook.ShellString {
		return true
	}
	f, err := shlex.Split(sh.Program())
	if err != nil || len(f) == 0 || len(f) > 2 || (len(f) == 2 && f[1] != "-c") {
		return false
	}
	name := strings.ToLower(strings.TrimSuffix(f[0][strings.LastIndexAny(f[0], `/\`)+1:], ".exe"))
	return name == "sh" || name == "bash" || name == "dash" || name == "zsh"
}

// simpleWords are the words of line when it is one simple command whose
// words the shell leaves as written: a single statement (no list,
// pipeline, subshell, `&`, `!`, function or compound command; so no `cd`
// before it), whose words are literal text, quoted or not, or a `$NAME` /
// `${NAME}` of vars (hookside puts each in the hook's environment with that
// value) or, when home (the hook's absolute HOME) is known, `$HOME` and a
// leading unquoted `~` or `~/` (tilde expansion: home), and hold no glob
// character, brace, backslash, other leading `~` (`~user`) or `=` (zsh)
// outside quotes. Assignments and redirections may come with it; neither
// moves the directory the command runs in. ok false otherwise.
func simpleWords(line string, vars map[string]string, home string) (words []string, ok bool) {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(line), "")
	if err != nil || len(f.Stmts) != 1 {
		return nil, false
	}
	st := f.Stmts[0]
	if st.Negated || st.Background || st.Coprocess || st.Disown {
		return nil, false
	}
	call, isCall := st.Cmd.(*syntax.CallExpr)
	if !isCall || len(call.Args) == 0 {
		return nil, false
	}
	for _, w := range call.Args {
		text, ok := literalWord(w, vars, home)
		if !ok {
			return nil, false
		}
		words = append(words, text)
	}
	return words, true
}

// literalWord is the value of w when it is fixed text (simpleWords).
func literalWord(w *syntax.Word, vars map[string]string, home string) (string, bool) {
	var b strings.Builder
	for i, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			v := p.Value
			if i == 0 && home != "" && (v == "~" && len(w.Parts) == 1 || strings.HasPrefix(v, "~/")) {
				b.WriteString(home)
				v = v[1:]
			}
			if strings.ContainsAny(v, "*?[]{}\\$`") || (i == 0 && (strings.HasPrefix(v, "~") || strings.HasPrefix(v, "="))) {
				return "", false
			}
			b.WriteString(v)
		case *syntax.SglQuoted:
			if p.Dollar {
				return "", false
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			if p.Dollar {
				return "", false
			}
			for _, q := range p.Parts {
				switch q := q.(type) {
				case *syntax.Lit:
					if strings.ContainsAny(q.Value, "\\$`") {
						return "", false
					}
					b.WriteString(q.Value)
				case *syntax.ParamExp:
					v, ok := plainVar(q, vars, home)
					if !ok {
						return "", false
					}
					b.WriteString(v)
				default:
					return "", false
				}
			}
		case *syntax.ParamExp:
			v, ok := plainVar(p, vars, home)
			if !ok || strings.ContainsAny(v, " \t\n*?[") { // unquoted: split and globbed
				return "", false
			}
			b.WriteString(v)
		default:
			return "", false
		}
	}
	return b.String(), true
}

// plainVar is the value of p when it is `$NAME` or `${NAME}` with NAME a
// key of vars and one of hook.ExpandableVars, or HOME when home is known.
func plainVar(p *syntax.ParamExp, vars map[string]string, home string) (string, bool) {
	if p.Param == nil {
		return "", false
	}
	v, ok := vars[p.Param.Value]
	switch {
	case p.Param.Value == "HOME" && home != "":
		v, ok = home, true
	case !hook.IsExpandable(p.Param.Value):
		ok = false
	}
	if !ok {
		return "", false
	}
	var b strings.Builder
	if err := syntax.NewPrinter().Print(&b, p); err != nil {
		return "", false
	}
	if got := b.String(); got != "$"+p.Param.Value && got != "${"+p.Param.Value+"}" {
		return "", false // an operator: ${NAME:-x}, ${#NAME}, ${NAME[0]}, …
	}
	return v, true
}

// scriptOperand is the first operand of the interpreter name (a key of
// scriptInterpreters, "python" for every python) among args, past its
// options; ok false when an option makes the operands code or something
// other than a script file (sh -c, -s; python -c, -m; node -e, -p; perl
// -e; ruby -e and the -C / -x that change directory; `-` for stdin), or an
// option whose separate value is not known to be none comes first.
func scriptOperand(name string, args []string) (string, bool) {
	sub := name == "deno" || name == "bun"
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			if i+1 < len(args) {
				return args[i+1], true
			}
			return "", false
		case a == "-":
			return "", false
		case sub && a == "run":
			sub = false
			continue
		case sub:
			return a, true
		case strings.HasPrefix(a, "--"):
			if strings.Contains(a, "=") {
				continue
			}
			if !flagOnly[name+" "+a] {
				return "", false
			}
		case strings.HasPrefix(a, "-") || ((name == "sh" || name == "bash" || name == "dash" || name == "zsh") && strings.HasPrefix(a, "+")):
			if name == "deno" || name == "bun" {
				return "", false
			}
			code, valueNext := shortOptions(name, a[1:])
			if code {
				return "", false
			}
			if valueNext {
				i++
			}
		default:
			return a, true
		}
	}
	return "", false
}

// flagOnly are the long options (by "interpreter --option") known to take
// no value; after any other, the next word may be its value.
var flagOnly = map[string]bool{
	"bash --norc": true, "bash --noprofile": true, "bash --posix": true, "bash --restricted": true,
	"bash --verbose": true, "bash --noediting": true,
	"node --experimental-strip-types": true, "node --no-warnings": true, "node --enable-source-maps": true,
	"node --trace-warnings": true, "node --no-deprecation": true, "node --experimental-vm-modules": true,
	"node --experimental-transform-types": true, "nodejs --no-warnings": true,
	"ruby --disable-gems": true, "ruby --verbose": true,
}

// shortOptions reads the short-option bundle b (after its "-" or "+") of
// interpreter name: code reports an option after which the operands are
// not a script file to run from here; valueNext one whose value is the
// next word.
func shortOptions(name, b string) (code, valueNext bool) {
	var codeLetters, restValue, nextValue string
	switch name {
	case "sh", "bash", "dash", "zsh":
		codeLetters, nextValue = "cs", "oO"
	case "python":
		codeLetters, nextValue = "cm", "WX"
	case "perl":
		codeLetters, restValue, nextValue = "eEx", "0lIMmiCdD", "IMm"
	case "ruby":
		codeLetters, restValue, nextValue = "eCxS", "0IrEFKTWil", "IrE"
	case "node", "nodejs":
		codeLetters, nextValue = "epi", "rC"
	}
	for j := 0; j < len(b); j++ {
		c := b[j]
		switch {
		case strings.IndexByte(codeLetters, c) >= 0:
			return true, false
		case strings.IndexByte(nextValue, c) >= 0 && j == len(b)-1:
			return false, true
		case strings.IndexByte(restValue, c) >= 0 || strings.IndexByte(nextValue, c) >= 0:
			return false, false // the rest of the bundle is its value
		}
	}
	return false, false
}
