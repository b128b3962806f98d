package pin

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Code a shell reads from a pipe, a process substitution or its standard
// input at run time (`curl … | sh`, `bash <(curl …)`, `. /dev/stdin <
// lib.sh`). What the producer writes is known only when it is literal
// text the flattener scans already (echo or printf of literals, queued as
// code under inCode) or the files a `cat` of literal paths reads: those
// are emitted as `. FILE` (noteSource), so the file is pinned and read for
// what it sources like any sourced script. Any other producer is listed in
// Pins.Unfollowed as "code read from a pipe: LINE" (a noteOp token).

// noteOp is the operator of a token that only lists its text in
// Pins.Unfollowed (the scanner records it and moves on).
const noteOp = "#"

// pipeNote is how Pins.Unfollowed lists code a shell reads from a
// producer pinning cannot know.
const pipeNote = "code read from a pipe: "

// maxNoteText bounds the command text a note quotes.
const maxNoteText = 200

// stdinDevs are the paths `.`/`source` read standard input through.
var stdinDevs = map[string]bool{"/dev/stdin": true, "/dev/fd/0": true, "/proc/self/fd/0": true}

// fedCode handles the producer prod of code that n (a pipeline or a
// command) runs: the files of a literal `cat` are sourced, a literal echo
// or printf is scanned already, anything else is noted.
func (fl *flattener) fedCode(prod []*syntax.Stmt, n syntax.Node) {
	if len(prod) == 1 {
		if files, ok := catFiles(prod[0]); ok {
			for _, f := range files {
				fl.noteSource(f)
			}
			return
		}
		if literalEcho(prod[0]) {
			return
		}
	}
	text := strings.Join(strings.Fields(fl.text(n)), " ")
	if len(text) > maxNoteText {
		text = text[:maxNoteText] + "…"
	}
	fl.extra = append(fl.extra, shellWord{op: noteOp, text: pipeNote + text})
}

// noteSource emits `. w ;` after the current command: w is read as a
// script.
func (fl *flattener) noteSource(w *syntax.Word) {
	st := fl.unquote(w)
	fl.extra = append(fl.extra, shellWord{text: "."}, shellWord{text: st.text, glob: st.glob}, shellWord{op: ";"})
}

// stdinCode handles a statement that may run code read from its standard
// input or a process substitution: a shell without a script operand (or
// with -s), `.`/`source` of /dev/stdin, or a shell, `.`/`source` or eval
// given `<(…)`. Its `< FILE` is sourced, a `<(…)` or `< <(…)` producer
// is judged by fedCode.
func (fl *flattener) stdinCode(s *syntax.Stmt) {
	ce, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || !readsCode(s) {
		return
	}
	for _, w := range ce.Args {
		if ps := procSubst(w); ps != nil {
			fl.fedCode(ps.Stmts, s)
		}
	}
	if !readsStdin(ce) {
		return
	}
	for _, r := range s.Redirs {
		if r.Op != syntax.RdrIn || r.Word == nil {
			continue
		}
		if ps := procSubst(r.Word); ps != nil {
			fl.fedCode(ps.Stmts, s) // sh < <(curl …)
			continue
		}
		if literalWord(r.Word) {
			fl.noteSource(r.Word)
		}
	}
}

// procSubst returns the <(…) that w is, or nil.
func procSubst(w *syntax.Word) *syntax.ProcSubst {
	if len(w.Parts) != 1 {
		return nil
	}
	ps, _ := w.Parts[0].(*syntax.ProcSubst)
	if ps == nil || ps.Op != syntax.CmdIn {
		return nil
	}
	return ps
}

// readsStdin reports whether the command ce (past wrappers) runs what
// its standard input holds: a shell without a script operand, or with -s;
// `.`/`source` of /dev/stdin.
func readsStdin(ce *syntax.CallExpr) bool {
	args := pastWrappers(ce.Args)
	if len(args) == 0 {
		return false
	}
	switch name := path.Base(args[0].Lit()); {
	case name == "." || name == "source":
		return len(args) > 1 && stdinDevs[args[1].Lit()]
	case shellNames[name]:
		for i := 1; i < len(args); i++ {
			a := args[i].Lit()
			switch {
			case a == "-o" || a == "-O":
				i++
			case strings.HasPrefix(a, "--"):
			case strings.HasPrefix(a, "-") || strings.HasPrefix(a, "+"):
				if strings.Contains(a, "c") {
					return false
				}
				if strings.Contains(a, "s") {
					return true
				}
			default:
				return stdinDevs[a]
			}
		}
		return true
	}
	return false
}

// literalWord reports whether w is literal text (no expansion).
func literalWord(w *syntax.Word) bool {
	ok := true
	syntax.Walk(w, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.SglQuoted:
			ok = ok && !n.Dollar
		case nil, *syntax.Word, *syntax.Lit, *syntax.DblQuoted:
		default:
			ok = false
		}
		return ok
	})
	return ok
}

// catFiles returns the file operands of s when it is `cat` of literal
// paths (at least one, options allowed).
func catFiles(s *syntax.Stmt) ([]*syntax.Word, bool) {
	ce, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(s.Redirs) > 0 || len(ce.Assigns) > 0 || len(ce.Args) < 2 || path.Base(ce.Args[0].Lit()) != "cat" {
		return nil, false
	}
	var files []*syntax.Word
	for _, w := range ce.Args[1:] {
		if !literalWord(w) {
			return nil, false
		}
		if lit := w.Lit(); lit == "-" {
			return nil, false // standard input
		} else if strings.HasPrefix(lit, "-") {
			continue
		}
		files = append(files, w)
	}
	return files, len(files) > 0
}

// literalEcho reports whether s is echo or printf of literal text only
// (its operands are scanned as code: flattener.cmd under inCode).
func literalEcho(s *syntax.Stmt) bool {
	ce, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(s.Redirs) > 0 || len(ce.Args) == 0 || !textCode[ce.Args[0].Lit()] {
		return false
	}
	for _, w := range ce.Args {
		if !literalWord(w) {
			return false
		}
	}
	return true
}
