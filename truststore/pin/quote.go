package pin

import "strings"

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

// decodeANSIC decodes the body of a $'…' string as bash does (the
// QUOTING section of bash(1)): \a \b \e \E \f \n \r \t \v \\ \' \" \?,
// \nnn (one to three octal digits), \xHH (one or two hex digits), \uHHHH
// and \UHHHHHHHH (one to four or eight), \cX (control-X); any other
// backslash stays as written. ok is false for what bash decodes
// differently by locale or truncates: a \u or \U beyond ASCII, a NUL
// byte.
func decodeANSIC(s string) (string, bool) {
	if !strings.Contains(s, `\`) {
		return s, true
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch c = s[i]; c {
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'e', 'E':
			b.WriteByte(0x1b)
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte('\v')
		case '\\', '\'', '"', '?':
			b.WriteByte(c)
		case '0', '1', '2', '3', '4', '5', '6', '7':
			n, j := digitsValue(s, i, 3, 8)
			if byte(n) == 0 {
				return "", false
			}
			b.WriteByte(byte(n))
			i = j - 1
		case 'x', 'u', 'U':
			max := map[byte]int{'x': 2, 'u': 4, 'U': 8}[c]
			n, j := digitsValue(s, i+1, max, 16)
			switch {
			case j == i+1: // no digits: kept as written
				b.WriteByte('\\')
				b.WriteByte(c)
				continue
			case n == 0, c != 'x' && n > 0x7f:
				return "", false
			}
			b.WriteByte(byte(n))
			i = j - 1
		case 'c':
			if i+1 >= len(s) {
				b.WriteString(`\c`)
				continue
			}
			i++
			x := s[i]
			if x == '\\' && i+1 < len(s) && s[i+1] == '\\' {
				i++
			}
			if x == '?' {
				x = 0x7f
			} else {
				x &= 0x1f // bash upper-cases first; the mask clears the case bit anyway
			}
			if x == 0 {
				return "", false
			}
			b.WriteByte(x)
		default:
			b.WriteByte('\\')
			b.WriteByte(c)
		}
	}
	return b.String(), true
}

// digitsValue reads up to max digits of base (8 or 16) from s[i:]: their
// value and the index after them.
func digitsValue(s string, i, max int, base uint32) (uint32, int) {
	n, j := uint32(0), i
	for ; j < len(s) && j-i < max; j++ {
		d := uint32(0)
		switch c := s[j]; {
		case c >= '0' && c <= '7', base == 16 && c >= '8' && c <= '9':
			d = uint32(c - '0')
		case base == 16 && c >= 'a' && c <= 'f':
			d = uint32(c-'a') + 10
		case base == 16 && c >= 'A' && c <= 'F':
			d = uint32(c-'A') + 10
		default:
			return n, j
		}
		n = n*base + d
	}
	return n, j
}

// literalSubsts returns the command and process substitutions written
// inside a literal ($(…), `…`, <(…), >(…) in quotes or escaped): text
// the shell runs when it evaluates the literal later (eval, arithmetic on
// a variable holding `a[$(…)]`, ${x@P}, an extglob pattern), each as
// written, to be scanned as a script of its own.
func literalSubsts(s string) []string {
	if !strings.ContainsAny(s, "`(") {
		return nil
	}
	var out []string
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '`':
		case i+1 < len(s) && s[i+1] == '(' && (s[i] == '$' || s[i] == '<' || s[i] == '>'):
		default:
			continue
		}
		j := skipExpansion(s, i)
		out = append(out, "$"+s[i+1:j])
		if s[i] == '`' {
			out[len(out)-1] = s[i:j]
		}
		i = j - 1
	}
	return out
}
