package pin

import (
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
}

// maxBraceWords bounds the words one brace expansion (`{a,b}`, `{1..3}`,
// nested or several) is followed into; a larger one is opaque.
const maxBraceWords = 64

// splitShell parses a command line with the shfmt parser (mvdan.cc/sh/v3/
// syntax, bash dialect) and flattens it into the scanner's token stream:
// every simple command anywhere in it (in pipelines, lists, subshells,
// blocks, if/while/for/case bodies, functions, and inside $(…), `…` and
// <(…)) becomes its words — assignments first, then the arguments, then
// each redirection as an operator followed by its target — ended by ";".
// A here-document body is scanned as a script of its own (it may be fed to
// a shell). A line the parser rejects (unbalanced quote, a `shell` string
// that is not POSIX) falls back to whitespace-separated words, so the
// scanner still sees every word (splitFields): over-inclusion only makes
// trust stricter.
func splitShell(s string) []shellWord {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash), syntax.RecoverErrors(maxRecover)).Parse(strings.NewReader(s), "")
	if err != nil {
		return splitFields(s)
	}
	fl := &flattener{src: s}
	fl.stmts(f.Stmts)
	return fl.out
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
	// hdocs are here-document bodies, scanned after their command.
	hdocs []string
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
	fl.cmd(s.Cmd)
	for _, r := range s.Redirs {
		fl.out = append(fl.out, shellWord{op: r.Op.String()})
		if r.Word != nil {
			fl.word(r.Word)
		}
		if r.Hdoc != nil {
			fl.hdocs = append(fl.hdocs, fl.text(r.Hdoc))
		}
	}
	fl.end()
	later, hdocs := fl.later, fl.hdocs
	fl.later, fl.hdocs = nil, nil
	fl.stmts(later)
	for _, h := range hdocs {
		fl.out = append(fl.out, splitShell(h)...)
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

func (fl *flattener) cmd(c syntax.Command) {
	switch c := c.(type) {
	case *syntax.CallExpr:
		for _, a := range c.Assigns {
			fl.assign(a)
		}
		fl.call("", c.Args)
	case *syntax.BinaryCmd:
		fl.stmt(c.X)
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

// assign emits NAME=value as one word (the scanner skips assignments in
// command position) or, for a declaration's bare operand, the operand.
func (fl *flattener) assign(a *syntax.Assign) {
	switch {
	case a.Naked && a.Value != nil:
		fl.word(a.Value)
	case a.Naked && a.Name != nil:
		fl.out = append(fl.out, shellWord{text: a.Name.Value})
	case a.Name != nil:
		text, glob := "", false
		if a.Value != nil {
			text, glob = fl.unquote(a.Value)
		}
		fl.out = append(fl.out, shellWord{text: a.Name.Value + "=" + text, glob: glob})
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
	text, glob := fl.unquote(w)
	dynamic := false
	for _, p := range w.Parts {
		if _, ok := p.(*syntax.ProcSubst); ok {
			dynamic = true
		}
	}
	fl.out = append(fl.out, shellWord{text: text, glob: glob, dynamic: dynamic})
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
		t, g := fl.braceText(ew)
		alts = append(alts, shellWord{text: t, glob: g})
	}
	if len(alts) == 1 && alts[0].text == text {
		return // an escaped or malformed brace: nothing to expand
	}
	fl.out = append(fl.out, alts...)
}

// braceText is unquote for a word brace expansion produced: its parts may
// be new literals without a source position, so only those and quoted
// parts are read directly; any other part is taken as the source has it.
func (fl *flattener) braceText(w *syntax.Word) (string, bool) {
	saved := fl.later
	text, glob := fl.unquote(w)
	fl.later = saved // the commands inside were queued by the word as written
	return text, glob
}

// text is the source text of a node.
func (fl *flattener) text(n syntax.Node) string {
	a, b := int(n.Pos().Offset()), int(n.End().Offset())
	if a < 0 || b > len(fl.src) || a > b {
		return ""
	}
	return fl.src[a:b]
}

// unquote returns w with quotes and backslashes removed and expansions kept
// as written; glob reports an unquoted *, ? or [. Commands inside the word
// are queued for scanning.
func (fl *flattener) unquote(w *syntax.Word) (string, bool) {
	var b strings.Builder
	glob := false
	fl.parts(&b, w.Parts, false, &glob)
	return b.String(), glob
}

func (fl *flattener) parts(b *strings.Builder, parts []syntax.WordPart, quoted bool, glob *bool) {
	for _, p := range parts {
		switch p := p.(type) {
		case *syntax.Lit:
			if !quoted && strings.ContainsAny(p.Value, "*?[") {
				*glob = true
			}
			b.WriteString(unescape(p.Value, quoted))
		case *syntax.SglQuoted:
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			fl.parts(b, p.Parts, true, glob)
		case *syntax.CmdSubst:
			fl.later = append(fl.later, p.Stmts...)
			b.WriteString(fl.text(p))
		case *syntax.ProcSubst:
			fl.later = append(fl.later, p.Stmts...)
			b.WriteString(fl.text(p))
		case *syntax.ParamExp:
			syntax.Walk(p, func(n syntax.Node) bool {
				if cs, ok := n.(*syntax.CmdSubst); ok {
					fl.later = append(fl.later, cs.Stmts...)
				}
				return true
			})
			b.WriteString(fl.text(p))
		case *syntax.ExtGlob:
			*glob = true
			b.WriteString(fl.text(p))
		default:
			b.WriteString(fl.text(p))
		}
	}
}

// unescape removes the backslashes of a literal: outside quotes every
// backslash escapes the next character (a backslash-newline disappears);
// inside double quotes only before $, `, ", \ and newline.
func unescape(s string, quoted bool) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		n := s[i+1]
		switch {
		case n == '\n':
			i++
		case !quoted || strings.IndexByte("$`\"\\", n) >= 0:
			b.WriteByte(n)
			i++
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// skipExpansion returns the end of the expansion starting at s[i] ($(…),
// $((…)), ${…}, `…`, or a plain $NAME / lone $).
func skipExpansion(s string, i int) int {
	if s[i] == '`' {
		for j := i + 1; j < len(s); j++ {
			if s[j] == '\\' {
				j++
			} else if s[j] == '`' {
				return j + 1
			}
		}
		return len(s)
	}
	if i+1 >= len(s) {
		return len(s)
	}
	open, close := byte(0), byte(0)
	switch s[i+1] {
	case '(':
		open, close = '(', ')'
	case '{':
		open, close = '{', '}'
	default:
		j := i + 1
		for j < len(s) && (s[j] == '_' || s[j] >= 'a' && s[j] <= 'z' || s[j] >= 'A' && s[j] <= 'Z' || s[j] >= '0' && s[j] <= '9') {
			j++
		}
		if j == i+1 && j < len(s) && strings.IndexByte("@*#?$!-0123456789", s[j]) >= 0 {
			j++
		}
		return j
	}
	depth := 0
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case open:
			depth++
		case close:
			depth--
			if depth == 0 {
				return j + 1
			}
		case '\\':
			j++
		case '\'':
			k := strings.IndexByte(s[j+1:], '\'')
			if k < 0 {
				return len(s)
			}
			j += k + 1
		case '"':
			for j++; j < len(s) && s[j] != '"'; j++ {
				if s[j] == '\\' {
					j++
				}
			}
		}
	}
	return len(s)
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
