package pin

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Single quotes in a double-quoted ${…} (dashQuotes). Within double
// quotes, the word of ${NAME-WORD} (also :-, +, :+, =, :=, ?, :?) is read
// by bash with single quotes quoting, so a "}" between them does not end
// the expansion; dash reads such a quote as an ordinary character and ends
// the expansion at the first "}" (its trim operators #, ##, %, %% read the
// pattern unquoted, as bash does, and a nested "…" or $(…) quotes alike in
// both). So `echo "${x-'}"; sh evil.sh; echo "'}"` is one echo in bash and
// runs evil.sh in dash. mvdan's POSIX parser reads it as bash does; the
// POSIX reading therefore writes each such quote, the first one first, as
// `"'"` (a quoted "'": the same character to dash, and no quoting to the
// parser) and parses again, until none is left (up to maxQuoteRewrites
// times).
//
// What cannot be written so is pinned conservatively (rawPathWords): a
// line with such a quote in an unquoted here-document body (dash expands
// it otherwise, but the line around it reads alike), or with more of them
// than maxQuoteRewrites, and every line whose quotes were rewritten, has
// each path-like token of its raw text pinned as a path (pathOp, absent
// allowed), whatever either reading makes of it.

// maxQuoteRewrites bounds how many quotes posixParse rewrites in one line.
const maxQuoteRewrites = 64

// pathOp is the operator of a token that is pinned as a path (absent
// allowed) wherever it sits: a path-like token of a line the two shells
// may read otherwise than parsed (rawPathWords).
const pathOp = "@"

// dashQuoteParse parses s as POSIX sh with the single quotes dash reads as
// ordinary characters written `"'"` (see above), returning the text
// parsed and whether s has any such quote (then its raw tokens are pinned
// too: rawPathWords).
func dashQuoteParse(s string) (string, *syntax.File, bool, error) {
	odd := false
	for n := 0; ; n++ {
		f, err := parser(syntax.LangPOSIX).Parse(strings.NewReader(s), "")
		if !strings.Contains(s, "${") || !strings.Contains(s, "'") {
			return s, f, odd, err // no such quote: the tree is not walked
		}
		at, hdoc := dashQuotes(f)
		odd = odd || hdoc || len(at) > 0
		if len(at) == 0 || n == maxQuoteRewrites || s[at[0]] != '\'' {
			return s, f, odd, err
		}
		s = s[:at[0]] + `"'"` + s[at[0]+1:]
	}
}

// dashQuotes returns the offsets, sorted, of the single quotes of f that
// quote in the word of a ${NAME-WORD} form (dashParamOps) within double
// quotes: dash reads them as ordinary characters. hdoc reports whether an
// unquoted here-document body has such a quote (not in the offsets).
func dashQuotes(f *syntax.File) (at []int, hdoc bool) {
	if f == nil {
		return nil, false
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.DblQuoted:
			at = paramQuotes(n.Parts, false, at)
		case *syntax.Redirect:
			if n.Hdoc != nil && len(paramQuotes(n.Hdoc.Parts, false, nil)) > 0 {
				hdoc = true
			}
		}
		return true
	})
	slices.Sort(at)
	return at, hdoc
}

// paramQuotes appends to at the offsets of the single quotes among parts,
// read in double quotes (inWord: in the word of a dashParamOps form there),
// that dash reads as ordinary characters. A nested "…" is a DblQuoted of
// its own (dashQuotes walks it); $(…) and `…` quote afresh.
func paramQuotes(parts []syntax.WordPart, inWord bool, at []int) []int {
	for _, p := range parts {
		switch p := p.(type) {
		case *syntax.SglQuoted:
			if inWord {
				at = append(at, int(p.Left.Offset()))
			}
		case *syntax.ParamExp:
			if p.Exp != nil && p.Exp.Word != nil && dashParamOps[p.Exp.Op] {
				at = paramQuotes(p.Exp.Word.Parts, true, at)
			}
		}
	}
	return at
}

// dashParamOps are the ${NAME OP WORD} operators whose WORD dash reads in
// double quotes as double-quoted text (a "'" is a character there).
var dashParamOps = map[syntax.ParExpOperator]bool{
	syntax.DefaultUnset: true, syntax.DefaultUnsetOrNull: true,
	syntax.AlternateUnset: true, syntax.AlternateUnsetOrNull: true,
	syntax.AssignUnset: true, syntax.AssignUnsetOrNull: true,
	syntax.ErrorUnset: true, syntax.ErrorUnsetOrNull: true,
}

// unquoteRewrites returns words with each `"'"` of their text written
// "'": a word kept as written (an expansion) holds a rewritten quote so,
// where dash reads a "'" (its code, split again, keeps the quotes).
func unquoteRewrites(words []shellWord) []shellWord {
	out := slices.Clone(words)
	for i := range out {
		if t := strings.ReplaceAll(out[i].text, `"'"`, "'"); t != out[i].text {
			out[i].code = out[i].codeText()
			out[i].text = t
		}
	}
	return out
}

// rawPathWords returns a pathOp token for each path-like token of s
// (pathLike), split at blanks, quotes, backslashes, "=" and the shell's
// operator characters, in order and unique.
func rawPathWords(s string) []shellWord {
	var out []shellWord
	seen := map[string]bool{}
	for _, t := range strings.FieldsFunc(s, func(r rune) bool { return strings.ContainsRune(" \t\r\n;&|<>()'\"`\\=", r) }) {
		if pathLike(t) && !seen[t] {
			seen[t] = true
			out = append(out, shellWord{op: pathOp, text: t})
		}
	}
	return out
}

// pathLike reports whether a raw token reads as a path: it has a path
// separator, or a "." inside it (a file name's extension: evil.sh), and
// is not an option.
func pathLike(t string) bool {
	if strings.HasPrefix(t, "-") {
		return false
	}
	if hasPathSep(t) {
		return true
	}
	i := strings.IndexByte(strings.Trim(t, "."), '.')
	return i >= 0
}
