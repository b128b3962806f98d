package matcher

import (
	"regexp"
	"strings"
)

// Bash specifiers of permission rules, per
// https://code.claude.com/docs/en/permissions#bash and the `if` table of
// https://code.claude.com/docs/en/hooks#common-fields.

type bashPattern struct {
	re *regexp.Regexp
	// more: the pattern names more than the command (it has a space
	// before its trailing wildcard or none at all), so a command whose
	// text is only known at run time ($(), backticks, $VAR) matches.
	more bool
}

// compileBashPattern: "*" is any run of characters, spaces included; a
// trailing " *" (or its equivalent ":*", recognised only at the end) also
// matches the bare prefix, so "ls *" matches "ls" and "ls -la" but not
// "lsof"; everything else is literal and the whole command must match.
func compileBashPattern(spec string) *bashPattern {
	if p, ok := strings.CutSuffix(spec, ":*"); ok {
		spec = p + " *"
	}
	head, tail := spec, ""
	if p, ok := strings.CutSuffix(spec, " *"); ok {
		head, tail = p, `(?: [\s\S]*)?`
	}
	parts := strings.Split(head, "*")
	for i := range parts {
		parts[i] = regexp.QuoteMeta(parts[i])
	}
	return &bashPattern{
		re:   regexp.MustCompile(`^` + strings.Join(parts, `[\s\S]*`) + tail + `$`),
		more: strings.ContainsAny(strings.TrimSpace(head), " \t"),
	}
}

// matchCommand reports whether some subcommand of cmd matches: cmd is split
// on the shell operators && || ; | |& & and newlines, the commands inside
// $() and backticks are checked too, and each subcommand loses its leading
// VAR=value assignments and process wrappers (timeout, time, nice, nohup,
// stdbuf, and xargs without flags) first. A command that cannot be split
// (an unterminated quote, $( or backtick) matches: the filter fails open,
// as Claude Code's does, and so does a pattern that names more than the
// command when cmd holds $(), backticks or $VAR.
func (b *bashPattern) matchCommand(cmd string) bool {
	subs, dynamic, ok := splitShell(cmd, 0)
	if !ok {
		return true
	}
	for _, s := range subs {
		if b.re.MatchString(stripCommandPrefix(s)) {
			return true
		}
	}
	return dynamic && b.more
}

// maxShellDepth bounds $() nesting; deeper commands count as unparseable.
const maxShellDepth = 16

// splitShell returns the subcommands of cmd (trimmed, non-empty), whether it
// has run-time text ($(), backticks, $VAR, ${…}), and false when it cannot be
// split.
func splitShell(cmd string, depth int) (subs []string, dynamic, ok bool) {
	if depth > maxShellDepth {
		return nil, false, false
	}
	var cur strings.Builder
	flush := func() {
		s := strings.TrimSpace(cur.String())
		s = strings.TrimSpace(strings.TrimLeft(s, "({"))
		s = strings.TrimSpace(strings.TrimRight(s, ")}"))
		if s != "" {
			subs = append(subs, s)
		}
		cur.Reset()
	}
	inner := func(body string) bool {
		s, _, ok := splitShell(body, depth+1)
		subs = append(subs, s...)
		return ok
	}
	var quote byte
	for i := 0; i < len(cmd); i++ {
		c := cmd[i]
		switch {
		case quote == '\'':
			if c == '\'' {
				quote = 0
			}
		case c == '\\':
			cur.WriteByte(c)
			if i+1 < len(cmd) {
				i++
				c = cmd[i]
			}
		case quote == '"' && c == '"':
			quote = 0
		case quote == 0 && (c == '\'' || c == '"'):
			quote = c
		case c == '$' && i+1 < len(cmd) && cmd[i+1] == '(':
			end := closingParen(cmd, i+1)
			if end < 0 || !inner(cmd[i+2:end]) {
				return nil, false, false
			}
			dynamic = true
			cur.WriteString(cmd[i : end+1])
			i = end
			continue
		case c == '`':
			end := strings.IndexByte(cmd[i+1:], '`')
			if end < 0 || !inner(cmd[i+1:i+1+end]) {
				return nil, false, false
			}
			dynamic = true
			cur.WriteString(cmd[i : i+2+end])
			i += 1 + end
			continue
		case c == '$' && i+1 < len(cmd) && (cmd[i+1] == '{' || cmd[i+1] == '_' || isASCIILetter(cmd[i+1])):
			dynamic = true
		case quote == 0 && (c == ';' || c == '\n'):
			flush()
			continue
		case quote == 0 && c == '|': // |, || and |& (the empty pieces drop out)
			flush()
			continue
		case quote == 0 && c == '&':
			prev := byte(0)
			if i > 0 {
				prev = cmd[i-1]
			}
			if prev == '>' || prev == '<' || i+1 < len(cmd) && cmd[i+1] == '>' {
				break // a redirection: 2>&1, &>file
			}
			flush() // & and &&
			continue
		}
		cur.WriteByte(c)
	}
	if quote != 0 {
		return nil, false, false
	}
	flush()
	return subs, dynamic, true
}

// closingParen returns the index of the ")" closing the "(" at open, quotes
// respected, or -1.
func closingParen(s string, open int) int {
	depth := 0
	var quote byte
	for i := open; i < len(s); i++ {
		c := s[i]
		switch {
		case quote == '\'':
			if c == '\'' {
				quote = 0
			}
		case c == '\\':
			i++
		case quote == '"':
			if c == '"' {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '(':
			depth++
		case c == ')':
			if depth--; depth == 0 {
				return i
			}
		}
	}
	return -1
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// stripCommandPrefix removes leading VAR=value assignments and process
// wrappers from one subcommand, keeping the rest of its text as written.
func stripCommandPrefix(s string) string {
	for {
		word, rest := firstWord(s)
		switch {
		case word == "":
			return s
		case isAssignment(word):
			s = rest
		case word == "nohup" || word == "time":
			s = skipFlags(rest)
		case word == "timeout":
			s = rest
			for { // -s SIGNAL and -k DURATION take a value
				w, r := firstWord(s)
				if !strings.HasPrefix(w, "-") {
					break
				}
				s = r
				if w == "-s" || w == "-k" {
					_, s = firstWord(s)
				}
			}
			if w, r := firstWord(s); w != "" {
				s = r // the duration
			}
		case word == "nice":
			s = rest
			if w, r := firstWord(s); w == "-n" {
				if _, r2 := firstWord(r); r2 != "" {
					s = r2
				}
			}
			s = skipFlags(s)
		case word == "stdbuf":
			s = skipFlags(rest)
		case word == "xargs":
			if w, _ := firstWord(rest); w == "" || strings.HasPrefix(w, "-") {
				return s // xargs with flags is matched as xargs
			}
			s = rest
		default:
			return s
		}
	}
}

// firstWord splits s into its first blank-separated word and the rest
// (leading blanks of the rest removed).
func firstWord(s string) (string, string) {
	s = strings.TrimLeft(s, " \t")
	i := strings.IndexAny(s, " \t")
	if i < 0 {
		return s, ""
	}
	return s[:i], strings.TrimLeft(s[i:], " \t")
}

func skipFlags(s string) string {
	for {
		w, r := firstWord(s)
		if !strings.HasPrefix(w, "-") {
			return s
		}
		s = r
	}
}

func isAssignment(w string) bool {
	eq := strings.IndexByte(w, '=')
	if eq <= 0 {
		return false
	}
	for i := 0; i < eq; i++ {
		c := w[i]
		if !(c == '_' || isASCIILetter(c) || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}
