package truststore

import "strings"

// shellWord is one token of a command line as splitShell sees it: a word
// with its quotes removed (expansions such as $VAR, ${…}, $(…) and `…` kept
// as written), or an operator.
type shellWord struct {
	text string
	op   string // "" for a word; else a control operator (";" for a newline) or a redirection
	glob bool   // the word has an unquoted *, ? or [
}

// shellOps are the operators splitShell recognises, longest first.
var shellOps = []string{"&>>", "<<<", "<<-", "&&", "||", ";;", "|&", "&>", ">>", ">|", ">&", "<<", "<&", "<>", ";", "|", "&", "(", ")", "<", ">"}

// splitShell splits a POSIX shell command line into words and operators.
// It understands single and double quotes, backslashes, comments, and keeps
// $(…), `…` and ${…} inside the word they belong to (with their own quotes
// and parentheses). It never fails: an unterminated quote runs to the end.
// It is a heuristic for finding files a command names, not an interpreter.
func splitShell(s string) []shellWord {
	var out []shellWord
	var cur strings.Builder
	inWord, glob := false, false
	flush := func() {
		if inWord {
			out = append(out, shellWord{text: cur.String(), glob: glob})
		}
		cur.Reset()
		inWord, glob = false, false
	}
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			flush()
			i++
		case c == '\n':
			flush()
			out = append(out, shellWord{op: ";"})
			i++
		case c == '#' && !inWord:
			j := strings.IndexByte(s[i:], '\n')
			if j < 0 {
				return out
			}
			i += j
		case c == '\\':
			inWord = true
			if i+1 < len(s) {
				if s[i+1] != '\n' {
					cur.WriteByte(s[i+1])
				}
				i += 2
			} else {
				i++
			}
		case c == '\'':
			inWord = true
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				cur.WriteString(s[i+1:])
				i = len(s)
			} else {
				cur.WriteString(s[i+1 : i+1+j])
				i += j + 2
			}
		case c == '"':
			inWord = true
			i++
			for i < len(s) && s[i] != '"' {
				switch {
				case s[i] == '\\' && i+1 < len(s) && strings.IndexByte("$`\"\\\n", s[i+1]) >= 0:
					if s[i+1] != '\n' {
						cur.WriteByte(s[i+1])
					}
					i += 2
				case s[i] == '$' || s[i] == '`':
					n := skipExpansion(s, i)
					cur.WriteString(s[i:n])
					i = n
				default:
					cur.WriteByte(s[i])
					i++
				}
			}
			i++ // closing quote
		case c == '$' || c == '`':
			inWord = true
			n := skipExpansion(s, i)
			cur.WriteString(s[i:n])
			i = n
		case strings.IndexByte("&|;()<>", c) >= 0:
			if (c == '<' || c == '>') && inWord && allDigits(cur.String()) {
				cur.Reset() // an fd number: 2>file
				inWord = false
			}
			flush()
			op := string(c)
			for _, o := range shellOps {
				if strings.HasPrefix(s[i:], o) {
					op = o
					break
				}
			}
			out = append(out, shellWord{op: op})
			i += len(op)
		default:
			if c == '*' || c == '?' || c == '[' {
				glob = true
			}
			inWord = true
			cur.WriteByte(c)
			i++
		}
	}
	flush()
	return out
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
