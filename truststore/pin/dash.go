package pin

import (
	"errors"
	"path"
	"slices"
	"strings"

	"github.com/google/shlex"
	"mvdan.cc/sh/v3/syntax"

	"github.com/hookside/hookside/internal/hook"
)

// The two readings of a command line (dashReading). A command hook runs
// through `sh -c`, and sh is bash on macOS and Git Bash but dash on Debian
// and Ubuntu, which reads some lines otherwise:
//
//   - `$'…'` and `$"…"` are quoting in bash, a literal "$" and a quoted
//     string in dash: `sh $'x.sh'` runs x.sh in bash, `$x.sh` in dash, and
//     `echo $'\' ; sh evil.sh ; #'` is one echo in bash but runs evil.sh
//     in dash;
//   - `((…))` is arithmetic in bash, two nested subshells in dash
//     (`((hooks/g))` runs hooks/g there); `((sh g.sh)|cat)` bash's parser
//     here rejects;
//   - `&>` and `&>>` redirect both streams in bash; dash reads `&` (run in
//     the background) and then `>`;
//   - in double quotes, a single quote in the word of ${x-…} quotes in
//     bash and is a character in dash, whose expansion ends at the first
//     "}" (dashQuoteParse);
//   - brace alternatives are expanded by bash only (flattener.word keeps
//     the literal word as well);
//   - dash's echo decodes backslash escapes (`echo 'sh \0170.sh' | sh`
//     runs x.sh there; dashEcho).
//
// So every line is split both ways, and the scanner gets the words of both
// readings: the pins are the union of what either shell runs. A command
// hook's line that either reading cannot parse is listed whole in
// Pins.Unfollowed, naming the shell (dashAmbiguity).

// splitShellIn is splitShell with the text it parses again (here-document
// bodies, literals' substitutions, echo operands) drawn from rb: once it
// is spent, such text is split at blanks only (splitFields), so text
// nested within text cannot make the work grow without bound. A line a
// reading rejects (unbalanced quote, a `shell` string that is not POSIX,
// a bash-only construct in POSIX sh) is split so for that reading: the
// scanner still sees every word, and over-inclusion only makes trust
// stricter.
func splitShellIn(s string, rb *reparse) []shellWord {
	bash, err := parser(syntax.LangBash).Parse(strings.NewReader(s), "")
	out := splitFields(s)
	if err == nil {
		out = flattenAs(s, bash, rb, false).out
	} else {
		bash = nil
	}
	if d := dashWords(s, bash, rb); !sameWords(out, d) {
		out = append(append(out, shellWord{op: ";"}), d...)
	}
	return out
}

// dashWords returns the words of s as dash reads it (bash is its bash
// parse, nil when that failed); splitFields when no line of it parses.
// Dash runs each complete command as it reads it, so where the POSIX
// parse fails, its reading is the lines before the failing one
// (dashPrefix): the rest is read as bash reads it only.
// A line holding a construct the POSIX parse cannot read exactly as dash
// does (dashQuoteParse) has its raw path-like tokens pinned too
// (rawPathWords).
func dashWords(s string, bash *syntax.File, rb *reparse) []shellWord {
	src, f, odd, err := posixParse(s, bash)
	var raw []shellWord
	if odd {
		raw = append([]shellWord{{op: ";"}}, rawPathWords(s)...)
	}
	if err != nil {
		src, f, err = dashPrefix(src, err)
	}
	if err != nil {
		return append(splitFields(s), raw...)
	}
	out := flattenAs(src, f, rb, true).out
	if odd {
		out = unquoteRewrites(out)
	}
	return append(out, raw...)
}

// parseAs parses s as bash or, with posix, as POSIX sh (posixParse).
func parseAs(s string, posix bool) error {
	bash, err := parser(syntax.LangBash).Parse(strings.NewReader(s), "")
	if posix {
		if err != nil {
			bash = nil
		}
		_, _, _, err = posixParse(s, bash)
	}
	return err
}

// posixParse parses s as POSIX sh, returning the text parsed: each `&>`
// and `&>>` redirection operator of its bash parse (when not nil) is
// first written `& >`/`& >>`, as dash reads it, and each single quote
// dash reads as a character in a double-quoted ${…} is written `"'"`
// (dashQuoteParse; odd reports that s had one).
func posixParse(s string, bash *syntax.File) (src string, f *syntax.File, odd bool, err error) {
	if bash != nil {
		s = splitAmpRedirs(s, bash)
	}
	return dashQuoteParse(s)
}

func parser(lang syntax.LangVariant) *syntax.Parser {
	return syntax.NewParser(syntax.Variant(lang), syntax.RecoverErrors(maxRecover))
}

// splitAmpRedirs returns s with a blank after the "&" of every `&>` and
// `&>>` redirection of its bash parse f.
func splitAmpRedirs(s string, f *syntax.File) string {
	var at []int
	syntax.Walk(f, func(n syntax.Node) bool {
		if r, ok := n.(*syntax.Redirect); ok && (r.Op == syntax.RdrAll || r.Op == syntax.AppAll) {
			at = append(at, int(r.OpPos.Offset()))
		}
		return true
	})
	if len(at) == 0 {
		return s
	}
	slices.Sort(at)
	var b strings.Builder
	last := 0
	for _, i := range at {
		if i < last || i >= len(s) || s[i] != '&' {
			continue
		}
		b.WriteString(s[last : i+1])
		b.WriteByte(' ')
		last = i + 1
	}
	b.WriteString(s[last:])
	return b.String()
}

// sameWords reports whether two readings gave the same tokens.
func sameWords(a, b []shellWord) bool { return slices.Equal(a, b) }

// maxPrefixTries bounds how many times dashPrefix cuts a line off.
const maxPrefixTries = 8

// dashPrefix parses, as POSIX sh, the lines of s before the one where its
// parse failed with err (again while that fails too, up to maxPrefixTries
// times), returning the text parsed.
func dashPrefix(s string, err error) (string, *syntax.File, error) {
	for range maxPrefixTries {
		var pe syntax.ParseError
		var le syntax.LangError
		var at syntax.Pos
		switch {
		case errors.As(err, &pe):
			at = pe.Pos
		case errors.As(err, &le):
			at = le.Pos
		default:
			return s, nil, err
		}
		off := int(at.Offset())
		if off > len(s) {
			off = len(s)
		}
		s = s[:strings.LastIndexByte(s[:off], '\n')+1]
		f, e := parser(syntax.LangPOSIX).Parse(strings.NewReader(s), "")
		if e == nil {
			return s, f, nil
		}
		err = e
	}
	return s, nil, err
}

// dashAmbiguity says why a command hook's line, run by `sh -c`, may run
// other files than the ones pinned, "" when both readings parse it (their
// union is pinned): a line bash's reading or dash's reading rejects is
// pinned word by word, which that shell may run as something else
// (Pins.Unfollowed lists the line whole, for the reviewer). A hook whose
// `shell` names bash is read as bash only.
func dashAmbiguity(h hook.Hook) string {
	if parseAs(h.Command, false) != nil {
		return "not a line bash parses: pinned word by word, and sh (bash, or dash on Debian and Ubuntu) may run it otherwise"
	}
	if runsBash(h.Shell) {
		return ""
	}
	if parseAs(h.Command, true) != nil {
		return "not a line dash (sh on Debian and Ubuntu) parses as POSIX sh: pinned word by word, and dash may run it otherwise"
	}
	return ""
}

// runsBash reports whether a `shell` string's program is bash (`bash`,
// `/bin/bash -lc`): the line is then bash's to read, not sh's.
func runsBash(s hook.Shell) bool {
	if s.Kind() != hook.ShellString {
		return false
	}
	words, err := shlex.Split(s.Program())
	return err == nil && len(words) > 0 && path.Base(words[0]) == "bash"
}

// isQuoted reports whether p is a quoted string: after a lone "$" it is
// dash's reading of $'…' or $"…" (a literal "$").
func isQuoted(p syntax.WordPart) bool {
	switch p.(type) {
	case *syntax.SglQuoted, *syntax.DblQuoted:
		return true
	}
	return false
}

// tilde reports whether w starts with an unquoted "~" (tilde expansion).
func tilde(w *syntax.Word) bool {
	if len(w.Parts) == 0 {
		return false
	}
	l, ok := w.Parts[0].(*syntax.Lit)
	return ok && strings.HasPrefix(l.Value, "~")
}

// printed is the text of echo's or printf's operand w (name is the
// command) as code the shell may read from it: codeText, decoded as
// dash's echo decodes it in the POSIX reading.
func (fl *flattener) printed(name string, w *syntax.Word) string {
	t := fl.codeText(w)
	if fl.posix && name == "echo" {
		return dashEcho(t)
	}
	return t
}

// dashEcho decodes s as dash's echo prints it: \a \b \e \f \n \r \t \v
// \\, \NNN and \0NNN (octal, up to 3 digits), \c ends the output; any
// other backslash stays. NUL bytes are dropped (dash skips them when it
// reads code).
func dashEcho(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 == len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch e := s[i]; e {
		case 'a', 'b', 'e', 'f', 'n', 'r', 't', 'v', '\\':
			b.WriteByte(map[byte]byte{'a': 7, 'b': 8, 'e': 033, 'f': 12, 'n': 10, 'r': 13, 't': 9, 'v': 11, '\\': '\\'}[e])
		case 'c':
			return strings.ReplaceAll(b.String(), "\x00", "")
		case '0', '1', '2', '3', '4', '5', '6', '7':
			j := i
			if e == '0' {
				j++
			}
			v, n := 0, 0
			for ; n < 3 && j < len(s) && s[j] >= '0' && s[j] <= '7'; n, j = n+1, j+1 {
				v = v*8 + int(s[j]-'0')
			}
			b.WriteByte(byte(v))
			i = j - 1
		default:
			b.WriteByte('\\')
			b.WriteByte(e)
		}
	}
	return strings.ReplaceAll(b.String(), "\x00", "")
}
