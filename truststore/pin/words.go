package pin

import (
	"path"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// shellWord is one token of a command line as splitShell gives it to the
// scanner: a word with its quotes removed (expansions such as $VAR, ${…},
// $(…) and `…` kept as written), or an operator.
type shellWord struct {
	text string
	op   string // "" for a word; else ";" (end of a simple command) or a redirection ("<", ">>", "<<", …)
	glob bool   // the word has an unquoted *, ? or [
	// dynamic: the word's value is computed by the shell (a process
	// substitution), so it names no file of its own.
	dynamic bool
	// opaque: the word has a brace expansion too large to follow
	// (maxBraceWords): only its text before the first "{" is known.
	opaque bool
	// expands: the word has an expansion ($VAR, ${…}, $(…), `…`, $((…)))
	// kept as written: as code (eval "$X") it is not known whole.
	expands bool
	// code is the text as code is scanned again (flattener.codeText),
	// when it differs from text.
	code string
	// literal: every "$" of text is literal (dash's reading of $'…' and
	// $"…"; no expansion, no leading ~): the text is the path (follow).
	literal bool
}

// codeText is the text of w to scan as a command line (scanner.code).
func (w shellWord) codeText() string {
	if w.code != "" {
		return w.code
	}
	return w.text
}

// maxBraceWords bounds the words one brace expansion (`{a,b}`, `{1..3}`,
// nested or several) is followed into; a larger one is opaque.
const maxBraceWords = 64

// splitShell parses a command line with the shfmt parser (mvdan.cc/sh/v3/
// syntax) as bash and as POSIX sh (dash) read it (dashReading: the words
// of both readings) and flattens it into the scanner's token stream:
// every simple command anywhere in it (in pipelines, lists, subshells,
// blocks, if/while/for/case bodies, functions, and inside $(…), `…` and
// <(…)) becomes its words — assignments first, then the arguments, then
// each redirection as an operator followed by its target — ended by ";".
// A here-document body and a here-string are scanned as scripts of their
// own (they may be fed to a shell), and so are the operands of echo and
// printf inside a substitution or piped into a shell (`echo 'bash x.sh' |
// sh`), and the substitutions a literal holds (literalSubsts). A line the parser rejects (unbalanced quote, a `shell` string
// that is not POSIX) falls back to whitespace-separated words, so the
// scanner still sees every word (splitFields): over-inclusion only makes
// trust stricter.
func splitShell(s string) []shellWord { return splitShellIn(s, newReparse()) }

// flattenFile flattens the parsed line f (source s) as bash reads it.
func flattenFile(s string, f *syntax.File, rb *reparse) *flattener {
	return flattenAs(s, f, rb, false)
}

// flattenAs flattens f as bash reads it or, with posix, as dash does
// (dashReading).
func flattenAs(s string, f *syntax.File, rb *reparse, posix bool) *flattener {
	fl := &flattener{src: s, seen: map[*syntax.Stmt]bool{}, rb: rb, posix: posix}
	fl.stmts(f.Stmts)
	fl.missed(f)
	return fl
}

// maxReparse is how many bytes of nested text one resolution parses again
// (reparse).
const maxReparse = 256 << 10

// reparse is the budget of text parsed again, shared by everything one
// resolution splits, and the words of the text split so far: both
// readings of a line (dashReading) meet the same nested text, which is
// split once.
type reparse struct {
	left int
	done map[string][]shellWord
}

func newReparse() *reparse { return &reparse{left: maxReparse, done: map[string][]shellWord{}} }

// split parses nested text s as a command line while the budget lasts,
// else splits it at blanks.
func (rb *reparse) split(s string) []shellWord {
	if w, ok := rb.done[s]; ok {
		return w
	}
	var w []shellWord
	if rb.left < len(s) {
		rb.left = 0
		w = splitFields(s)
	} else {
		rb.left -= len(s)
		w = splitShellIn(s, rb)
	}
	w = slices.Clip(w)
	rb.done[s] = w
	return w
}

// missed flattens, after everything else, every statement of f the
// flattener did not reach: the commands of a $(…) or <(…) inside
// arithmetic ((( … )), let, for ((…)), $((…)), an array index), a case
// pattern or any other node that yields no words, so that nothing in
// the syntax tree hides a command.
func (fl *flattener) missed(f *syntax.File) {
	eachStmt(f, func(s *syntax.Stmt) {
		if !fl.seen[s] {
			fl.inCode++
			fl.stmt(s)
			fl.inCode--
		}
	})
}

// eachStmt calls fn on every statement of f, outer before inner, except
// those in a here-document body: that body is scanned as a script of its
// own.
func eachStmt(f *syntax.File, fn func(*syntax.Stmt)) {
	var visit func(n syntax.Node) bool
	visit = func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Stmt:
			fn(n)
		case *syntax.Redirect:
			if n.Hdoc != nil {
				if n.Word != nil {
					syntax.Walk(n.Word, visit)
				}
				return false
			}
		}
		return true
	}
	syntax.Walk(f, visit)
}

// maxRecover is how many missing tokens (a closing parenthesis, a command
// after a pipe) the parser may assume before giving up.
const maxRecover = 8

// redirOps are the redirection operators splitFields recognises at the
// start of a field, longest first.
var redirOps = []string{"&>>", "<<<", "<<-", "&>", ">>", ">|", ">&", "<<", "<&", "<>", "<", ">"}

// splitFields is the fallback for a line the parser rejects: blank-separated
// fields, control operators (; & | && ||) ending a command, a leading
// redirection operator split off its target.
func splitFields(s string) []shellWord {
	var out []shellWord
	for _, w := range strings.Fields(s) {
		switch w {
		case ";", "&", "|", "&&", "||", "|&", ";;":
			out = append(out, shellWord{op: ";"})
			continue
		}
		for _, op := range redirOps {
			if rest, ok := strings.CutPrefix(w, op); ok {
				out = append(out, shellWord{op: op})
				w = rest
				break
			}
		}
		if w != "" {
			w = strings.Trim(w, `'"`)
			out = append(out, shellWord{text: w, glob: strings.ContainsAny(w, "*?[")})
		}
	}
	return out
}

type flattener struct {
	src string
	out []shellWord
	// later are commands found inside words ($(…), `…`, <(…)), emitted
	// after the command that holds them.
	later []*syntax.Stmt
	// hdocs are here-document bodies and other text that may run as a
	// script (codeText), scanned after their command.
	hdocs []string
	// extra are tokens emitted after the current command: notes (noteOp)
	// and the `. FILE` of code read from a literal file (pipe.go).
	extra []shellWord
	// seen are the statements flattened so far (missed).
	seen map[*syntax.Stmt]bool
	rb   *reparse
	// inCode > 0 while flattening commands whose output may run as
	// code (inside $(…) or <(…), left of a pipe into a shell): the
	// operands of echo and printf there are scanned as scripts too.
	inCode int
	// posix: the line is read as dash reads it (dashReading; the parser
	// reads $'…' and $"…" as a literal "$" and a quoted string), and
	// echo decodes escapes (printed).
	posix bool
}

func (fl *flattener) end() { fl.out = append(fl.out, shellWord{op: ";"}) }

func (fl *flattener) stmts(ss []*syntax.Stmt) {
	for _, s := range ss {
		fl.stmt(s)
	}
}

func (fl *flattener) stmt(s *syntax.Stmt) {
	if s == nil {
		return
	}
	fl.seen[s] = true
	fl.stdinCode(s)
	fl.cmd(s.Cmd)
	for _, r := range s.Redirs {
		fl.out = append(fl.out, shellWord{op: r.Op.String()})
		if r.Word != nil {
			fl.word(r.Word)
			if r.Op == syntax.WordHdoc { // <<< text: a script when fed to a shell
				fl.hdocs = append(fl.hdocs, fl.codeText(r.Word))
			}
		}
		if r.Hdoc != nil {
			fl.hdocs = append(fl.hdocs, fl.text(r.Hdoc))
		}
	}
	fl.end()
	fl.out = append(fl.out, fl.extra...)
	fl.extra = nil
	later, hdocs := fl.later, fl.hdocs
	fl.later, fl.hdocs = nil, nil
	fl.inCode++
	fl.stmts(later)
	fl.inCode--
	for _, h := range hdocs {
		fl.out = append(fl.out, fl.rb.split(h)...)
		fl.end()
	}
}

// call emits one simple command: name, then words.
func (fl *flattener) call(name string, words []*syntax.Word) {
	if name != "" {
		fl.out = append(fl.out, shellWord{text: name})
	}
	for _, w := range words {
		fl.word(w)
	}
}

// textCode are the commands whose operands are printed: under inCode
// they are scanned as scripts too.
var textCode = map[string]bool{"echo": true, "printf": true}

func (fl *flattener) cmd(c syntax.Command) {
	switch c := c.(type) {
	case *syntax.CallExpr:
		for _, a := range c.Assigns {
			fl.assign(a)
		}
		fl.call("", c.Args)
		if fl.inCode > 0 && len(c.Args) > 1 && textCode[c.Args[0].Lit()] {
			for _, w := range c.Args[1:] {
				fl.hdocs = append(fl.hdocs, fl.printed(c.Args[0].Lit(), w))
			}
		}
	case *syntax.BinaryCmd:
		code := (c.Op == syntax.Pipe || c.Op == syntax.PipeAll) && readsCode(c.Y)
		if code {
			fl.inCode++
			if ce, ok := c.Y.Cmd.(*syntax.CallExpr); ok && readsStdin(ce) {
				fl.fedCode([]*syntax.Stmt{c.X}, c)
			}
		}
		fl.stmt(c.X)
		if code {
			fl.inCode--
		}
		fl.stmt(c.Y)
	case *syntax.Subshell:
		fl.stmts(c.Stmts)
	case *syntax.Block:
		fl.stmts(c.Stmts)
	case *syntax.IfClause:
		for ; c != nil; c = c.Else {
			fl.stmts(c.Cond)
			fl.stmts(c.Then)
		}
	case *syntax.WhileClause:
		fl.stmts(c.Cond)
		fl.stmts(c.Do)
	case *syntax.ForClause:
		if wi, ok := c.Loop.(*syntax.WordIter); ok {
			if wi.Name != nil && wi.Name.Value == "PATH" {
				// for/select PATH in …: the loop's commands are looked up
				// in each item, which the scan does not follow.
				fl.out = append(fl.out, shellWord{op: noteOp, text: "for PATH in … (PATH set by a loop: the commands found through it are not pinned)"})
			}
			fl.call("for", wi.Items)
			fl.end()
		}
		fl.stmts(c.Do)
	case *syntax.CaseClause:
		fl.call("case", []*syntax.Word{c.Word})
		fl.end()
		for _, it := range c.Items {
			fl.stmts(it.Stmts)
		}
	case *syntax.FuncDecl:
		fl.stmt(c.Body)
	case *syntax.DeclClause:
		fl.out = append(fl.out, shellWord{text: c.Variant.Value})
		for _, a := range c.Args {
			fl.assign(a)
		}
	case *syntax.TimeClause:
		fl.stmt(c.Stmt)
	case *syntax.CoprocClause:
		fl.stmt(c.Stmt)
	case *syntax.TestClause:
		fl.out = append(fl.out, shellWord{text: "[["})
		syntax.Walk(c.X, func(n syntax.Node) bool {
			if w, ok := n.(*syntax.Word); ok {
				fl.word(w)
				return false
			}
			return true
		})
	}
}

// readsCode reports whether a command on the right of a pipe may run
// what it reads as code: a shell (`| sh`, `| bash -s`), `source`/`.`, or
// a program whose name is not a literal; wrappers, their options and
// counts are looked through (`| sudo sh`, `| xargs -I{} sh -c`).
func readsCode(s *syntax.Stmt) bool {
	ce, ok := s.Cmd.(*syntax.CallExpr)
	if !ok {
		return false
	}
	args := pastWrappers(ce.Args)
	if len(args) == 0 {
		return false
	}
	lit := args[0].Lit()
	if lit == "" {
		return true
	}
	name := path.Base(lit)
	return shellNames[name] || name == "source" || name == "." || name == "eval"
}

// pastWrappers returns args from the word after the leading wrappers,
// their options and counts (`sudo -u x`, `timeout 5`, NAME=value): the
// first that is not literal or not one of those.
func pastWrappers(args []*syntax.Word) []*syntax.Word {
	for len(args) > 0 {
		lit := args[0].Lit()
		if lit == "" || !wrappers[path.Base(lit)] && !strings.HasPrefix(lit, "-") && !isDuration(lit) && !isAssignment(lit) {
			break
		}
		args = args[1:]
	}
	return args
}

// assign emits NAME=value as one word (the scanner skips assignments in
// command position) or, for a declaration's bare operand, the operand.
func (fl *flattener) assign(a *syntax.Assign) {
	switch {
	case a.Naked && a.Value != nil:
		fl.word(a.Value)
	case a.Naked && a.Name != nil:
		fl.out = append(fl.out, shellWord{text: a.Name.Value})
	case a.Name != nil:
		var st wordState
		if a.Value != nil {
			st = fl.unquote(a.Value)
		}
		sw := shellWord{text: a.Name.Value + "=" + st.text, glob: st.glob, expands: st.expands}
		if st.expands {
			sw.code = a.Name.Value + "=" + fl.codeText(a.Value)
		}
		fl.out = append(fl.out, sw)
	}
	if a.Array != nil {
		for _, e := range a.Array.Elems {
			if e.Value != nil {
				fl.word(e.Value)
			}
		}
	}
}

// word emits w as written and, when it has unquoted brace alternatives
// (bash and zsh expand `hooks/{k,g}.sh` to `hooks/k.sh hooks/g.sh`, a
// POSIX sh such as dash runs it literally; the default `sh` is bash on
// macOS and Git Bash on Windows), each word they expand to after it:
// every file either shell could run is a candidate.
func (fl *flattener) word(w *syntax.Word) {
	st := fl.unquote(w)
	dynamic := false
	for _, p := range w.Parts {
		if _, ok := p.(*syntax.ProcSubst); ok {
			dynamic = true
		}
	}
	sw := shellWord{text: st.text, glob: st.glob, dynamic: dynamic, expands: st.expands, literal: st.dollar && !st.expands && !st.glob && !tilde(w)}
	if st.expands {
		sw.code = fl.codeText(w)
	}
	fl.out = append(fl.out, sw)
	if dynamic {
		return
	}
	bw := &syntax.Word{Parts: append([]syntax.WordPart(nil), w.Parts...)}
	if !syntax.SplitBraces(bw) {
		return
	}
	var alts []shellWord
	for ew, err := range expand.BracesSeq(nil, bw) {
		if err != nil || len(alts) == maxBraceWords {
			fl.out[len(fl.out)-1].opaque = true
			return
		}
		alts = append(alts, fl.braceWord(ew))
	}
	if len(alts) == 1 && alts[0].text == st.text {
		return // an escaped or malformed brace: nothing to expand
	}
	fl.out = append(fl.out, alts...)
}

// braceWord is unquote for a word brace expansion produced: its parts may
// be new literals without a source position, so only those and quoted
// parts are read directly; any other part is taken as the source has it.
func (fl *flattener) braceWord(w *syntax.Word) shellWord {
	saved, hdocs := fl.later, len(fl.hdocs)
	st := fl.unquote(w)
	fl.later, fl.hdocs = saved, fl.hdocs[:hdocs] // queued by the word as written
	return shellWord{text: st.text, glob: st.glob, expands: st.expands}
}

// text is the source text of a node.
func (fl *flattener) text(n syntax.Node) string {
	a, b := int(n.Pos().Offset()), int(n.End().Offset())
	if a < 0 || b > len(fl.src) || a > b {
		return ""
	}
	return fl.src[a:b]
}

// wordState is a word as unquote reads it: its text (quotes and
// backslashes removed, $'…' decoded, expansions kept as written), whether
// it has an unquoted *, ? or [ (or an extglob), and whether it has an
// expansion.
type wordState struct {
	text          string
	glob, expands bool
	// dollar: the text has a "$" dash reads literally ($'…', $"…").
	dollar bool
}

// unquote reads w (wordState). Commands inside the word are queued for
// scanning, and so are the substitutions written inside its literals.
func (fl *flattener) unquote(w *syntax.Word) wordState {
	var b strings.Builder
	var st wordState
	fl.parts(&b, w.Parts, false, &st)
	st.text = b.String()
	return st
}

func (fl *flattener) parts(b *strings.Builder, parts []syntax.WordPart, quoted bool, st *wordState) {
	for i, p := range parts {
		switch p := p.(type) {
		case *syntax.Lit:
			if !quoted && strings.ContainsAny(p.Value, "*?[") {
				st.glob = true
			}
			st.dollar = st.dollar || fl.posix && !quoted && p.Value == "$" && i+1 < len(parts) && isQuoted(parts[i+1])
			v := unescape(p.Value, quoted)
			if v != p.Value {
				fl.literal(v)
			}
			b.WriteString(v)
		case *syntax.SglQuoted:
			v, ok := p.Value, true
			if p.Dollar {
				v, ok = decodeANSIC(v)
			}
			if !ok { // an escape bash decodes by locale, or a NUL: not known
				st.expands = true
				b.WriteString(fl.text(p))
				continue
			}
			fl.literal(v)
			b.WriteString(v)
		case *syntax.DblQuoted: // also $"…", which bash reads as "…" outside a translated locale
			fl.parts(b, p.Parts, true, st)
		case *syntax.CmdSubst:
			st.expands = true
			fl.later = append(fl.later, p.Stmts...)
			b.WriteString(fl.text(p))
		case *syntax.ProcSubst:
			st.expands = true
			fl.later = append(fl.later, p.Stmts...)
			b.WriteString(fl.text(p))
		case *syntax.ParamExp:
			st.expands = true
			syntax.Walk(p, func(n syntax.Node) bool {
				switch n := n.(type) {
				case *syntax.CmdSubst: // its own ${…} are queued when it is flattened
					fl.later = append(fl.later, n.Stmts...)
					return false
				case *syntax.ProcSubst:
					fl.later = append(fl.later, n.Stmts...)
					return false
				}
				return true
			})
			b.WriteString(fl.text(p))
		case *syntax.ExtGlob:
			st.glob = true
			fl.literal(p.Pattern.Value)
			if strings.Contains(p.Pattern.Value, "/") {
				b.WriteByte(0) // a pattern across directories: not followed (follow)
			}
			b.WriteString(fl.text(p))
		default: // $((…)), $[…]
			st.expands = true
			b.WriteString(fl.text(p))
		}
	}
}

// codeText is w as text that may run as a script: unquote's text, but
// with each $(…), `…` and <(…) (and a ${…} holding one) as "$_", an
// expansion pinning does not follow: the commands inside are scanned
// already (later), and their text scanned again would make the work grow
// with every level of nesting.
func (fl *flattener) codeText(w *syntax.Word) string {
	var b strings.Builder
	var text func(parts []syntax.WordPart, quoted bool)
	text = func(parts []syntax.WordPart, quoted bool) {
		for _, p := range parts {
			switch p := p.(type) {
			case *syntax.Lit:
				b.WriteString(unescape(p.Value, quoted))
			case *syntax.SglQuoted:
				v, ok := p.Value, true
				if p.Dollar {
					v, ok = decodeANSIC(v)
				}
				if !ok {
					v = fl.text(p)
				}
				b.WriteString(v)
			case *syntax.DblQuoted:
				text(p.Parts, true)
			case *syntax.CmdSubst, *syntax.ProcSubst:
				b.WriteString("$_")
			case *syntax.ParamExp:
				if hasSubst(p) {
					b.WriteString("$_")
				} else {
					b.WriteString(fl.text(p))
				}
			default:
				b.WriteString(fl.text(p))
			}
		}
	}
	text(w.Parts, false)
	return b.String()
}

// hasSubst reports whether n holds a $(…), `…` or <(…).
func hasSubst(n syntax.Node) bool {
	found := false
	syntax.Walk(n, func(n syntax.Node) bool {
		switch n.(type) {
		case *syntax.CmdSubst, *syntax.ProcSubst:
			found = true
		}
		return !found
	})
	return found
}

// literal queues the substitutions a literal holds ($(…) in quotes)
// for scanning as scripts: the shell runs them when the text is
// evaluated again.
func (fl *flattener) literal(v string) {
	fl.hdocs = append(fl.hdocs, literalSubsts(v)...)
}
