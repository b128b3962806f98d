package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/hookside/hookside/internal/jsonhtml"
)

// dispText returns s for a terminal: unchanged when every rune is
// printable (unicode.IsPrint: letters, marks, numbers, punctuation,
// symbols, ASCII space) and s is valid UTF-8; otherwise the whole string
// double-quoted with every other rune escaped (\r, \x1b, \u202e, …), so CR,
// ESC sequences, newlines, zero-width and bidi characters are visible.
func dispText(s string) string {
	if printable(s) {
		return s
	}
	return quoteText(s)
}

// dispWord is dispText for one word of a list: it also quotes when the word
// is empty or holds spaces or shell quoting characters, so word boundaries
// are visible.
func dispWord(s string) string {
	if !printable(s) {
		return quoteText(s)
	}
	if s == "" || strings.ContainsAny(s, " '\"\\") {
		return quoteText(s)
	}
	return s
}

// dispCommand shows a hook's command and its arguments (dispText for the
// command, dispWord for each argument): a hostile workspace file cannot move
// the cursor, clear the line or reorder text on the terminal.
func dispCommand(command string, args []string) string {
	out := dispText(command)
	for _, a := range args {
		out += " " + dispWord(a)
	}
	return out
}

func printable(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if !unicode.IsPrint(r) {
			return false
		}
	}
	return true
}

func quoteText(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case unicode.IsPrint(r):
			b.WriteRune(r)
		default:
			q := strconv.QuoteRuneToASCII(r)
			b.WriteString(q[1 : len(q)-1])
		}
		i += size
	}
	b.WriteByte('"')
	return b.String()
}

// writeJSON is the one writer of every --json output: v as indented JSON
// and a newline, with <, > and & written as themselves (encoding/json's
// default HTML escaping would turn a hook's "a < b" into "a \u003c b"),
// also inside MarshalJSON output and stored JSON (a V2 definition's
// action, a run's summaries).
func writeJSON(w io.Writer, v any) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if enc.Encode(v) == nil {
		_, _ = w.Write(jsonhtml.Unescape(b.Bytes()))
	}
}

// termSafe is a writer for text built from what hooks printed or answered
// (stdout, stderr, reasons, system messages): every control, format or
// invalid character except newline and tab is written escaped (\x1b,
// \u202e), so a hook cannot set the title, clear the screen or rewrite
// lines of the terminal. Each Write must be whole UTF-8 text (as fmt's are).
type termSafe struct{ w io.Writer }

func (t termSafe) Write(p []byte) (int, error) {
	var b strings.Builder
	for i := 0; i < len(p); {
		r, size := utf8.DecodeRune(p[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, p[i])
		case r == '\n' || r == '\t' || unicode.IsPrint(r):
			b.Write(p[i : i+size])
		case r < 0x80:
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
		i += size
	}
	if _, err := io.WriteString(t.w, b.String()); err != nil {
		return 0, err
	}
	return len(p), nil
}
