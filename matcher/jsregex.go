package matcher

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// This file translates a JavaScript regular expression (no flags, so the
// Annex B "web compatibility" grammar of ECMAScript without the u flag) into
// two equivalent patterns: one for the standard library's RE2 engine and one
// for github.com/dlclark/regexp2 with the ECMAScript option. Every literal is
// re-emitted escaped and every construct whose meaning differs between the
// engines is spelled out explicitly, so neither engine's own dialect (\A, \z,
// \p{..}, [[:alpha:]], (?i), \Q..\E, …) ever leaks into a matcher.
//
// Constructs RE2 lacks (lookaround, backreferences, named groups, \S inside a
// class, counted repetition above 1000) set needBacktrack: the regexp2
// pattern is used. Syntax JavaScript rejects is reported as an error.
//
// Known difference left on purpose: JavaScript without the u flag matches
// UTF-16 code units, both Go engines match code points. The two agree on
// every string of BMP characters (tool names are ASCII); a character outside
// the BMP counts as one character here and as two in JavaScript.

// errSyntax is wrapped by every translation error.
var errSyntax = errors.New("invalid regular expression")

// translation is the result of translateJS.
type translation struct {
	re2           string // stdlib regexp syntax; meaningful only when !needBacktrack
	ecma          string // regexp2 syntax (ECMAScript option)
	needBacktrack bool   // the pattern uses a construct RE2 does not have
}

// Spelled-out classes, identical in both targets' syntax families.
const (
	re2Dot      = `[^\n\r\x{2028}\x{2029}]`
	ecmaDot     = `[^\n\r\u2028\u2029]`
	re2Space    = `\t\n\x{b}\f\r\x{20}\x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}`
	ecmaSpace   = `\t\n\u000B\f\r\u0020\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000\uFEFF`
	re2Never    = `[^\x00-\x{10FFFF}]`
	ecmaNever   = `(?!)`
	re2Any      = `[\x00-\x{10FFFF}]`
	ecmaAny     = `[\s\S]`
	maxRE2Count = 1000 // RE2's limit on {n,m}

	// JavaScript's word characters are [A-Za-z0-9_] (ECMAScript
	// WordCharacters without the u and i flags); \b and \B test them on
	// both sides of the position.
	ecmaWord        = `[A-Za-z0-9_]`
	ecmaBoundary    = `(?:(?<=` + ecmaWord + `)(?!` + ecmaWord + `)|(?<!` + ecmaWord + `)(?=` + ecmaWord + `))`
	ecmaNonBoundary = `(?:(?<=` + ecmaWord + `)(?=` + ecmaWord + `)|(?<!` + ecmaWord + `)(?!` + ecmaWord + `))`
)

type groupKind uint8

const (
	groupCapture groupKind = iota
	groupPlain
	groupLookahead
	groupLookbehind
)

type jsParser struct {
	src       []rune
	pos       int
	re, ec    strings.Builder
	needBT    bool
	nGroups   int            // capturing groups in the whole pattern (prescan)
	names     map[string]int // group name -> 1-based group index (prescan)
	nextGroup int            // index of the next capturing group seen by parse
	stack     []groupKind
}

// translateJS parses pattern as a JavaScript regular expression and returns
// its RE2 and regexp2 spellings, or an error wrapping errSyntax.
func translateJS(pattern string) (translation, error) {
	if !utf8.ValidString(pattern) {
		return translation{}, fmt.Errorf("%w: pattern is not valid UTF-8", errSyntax)
	}
	p := &jsParser{src: []rune(pattern)}
	if err := p.prescan(); err != nil {
		return translation{}, err
	}
	if err := p.parse(); err != nil {
		return translation{}, err
	}
	return translation{re2: p.re.String(), ecma: p.ec.String(), needBacktrack: p.needBT}, nil
}

func (p *jsParser) errorf(format string, args ...any) error {
	return fmt.Errorf("%w: %s at offset %d", errSyntax, fmt.Sprintf(format, args...), p.pos)
}

// prescan counts capturing groups and collects group names, because a
// backreference may refer to a group that comes later and \k only means a
// named reference when the pattern has named groups.
func (p *jsParser) prescan() error {
	src := p.src
	inClass := false
	for i := 0; i < len(src); i++ {
		switch c := src[i]; {
		case c == '\\':
			i++
		case inClass:
			if c == ']' {
				inClass = false
			}
		case c == '[':
			inClass = true
		case c == '(':
			if i+1 >= len(src) || src[i+1] != '?' {
				p.nGroups++
				continue
			}
			if i+2 < len(src) && src[i+2] == '<' && i+3 < len(src) && src[i+3] != '=' && src[i+3] != '!' {
				p.nGroups++
				end := i + 3
				for end < len(src) && src[end] != '>' {
					end++
				}
				if end >= len(src) {
					p.pos = i
					return p.errorf("unterminated group name")
				}
				name := string(src[i+3 : end])
				if !validGroupName(name) {
					p.pos = i
					return p.errorf("invalid group name %q", name)
				}
				if p.names == nil {
					p.names = make(map[string]int)
				}
				if _, dup := p.names[name]; dup {
					p.pos = i
					return p.errorf("duplicate group name %q", name)
				}
				p.names[name] = p.nGroups
			}
		}
	}
	return nil
}

// validGroupName accepts JavaScript identifiers made of letters, digits, _
// and $ (escapes in group names are not supported: an error).
func validGroupName(name string) bool {
	if name == "" {
		return false
	}
	for i, r := range name {
		switch {
		case r == '_' || r == '$' || unicode.IsLetter(r):
		case i > 0 && (unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r)):
		default:
			return false
		}
	}
	return true
}

func (p *jsParser) emit(re2, ecma string) {
	p.re.WriteString(re2)
	p.ec.WriteString(ecma)
}

func (p *jsParser) peek(off int) rune {
	if p.pos+off < len(p.src) {
		return p.src[p.pos+off]
	}
	return -1
}

func (p *jsParser) parse() error {
	canQuantify := false
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		switch c {
		case '|':
			p.emit("|", "|")
			p.pos++
			canQuantify = false
		case '(':
			if err := p.openGroup(); err != nil {
				return err
			}
			canQuantify = false
		case ')':
			if len(p.stack) == 0 {
				return p.errorf("unmatched ')'")
			}
			kind := p.stack[len(p.stack)-1]
			p.stack = p.stack[:len(p.stack)-1]
			p.emit(")", ")")
			p.pos++
			// Annex B: lookaheads are quantifiable, lookbehinds are not.
			canQuantify = kind != groupLookbehind
		case '*', '+', '?':
			if !canQuantify {
				return p.errorf("nothing to repeat")
			}
			s := string(c)
			p.pos++
			if p.peek(0) == '?' {
				s += "?"
				p.pos++
			}
			p.emit(s, s)
			canQuantify = false
		case '{':
			lo, hi, n, ok := p.bracedQuantifier()
			if !ok { // Annex B: a '{' that starts no quantifier is literal
				p.literal('{')
				p.pos++
				canQuantify = true
				continue
			}
			if !canQuantify {
				return p.errorf("nothing to repeat")
			}
			if hi >= 0 && lo > hi {
				return p.errorf("numbers out of order in {} quantifier")
			}
			if lo > maxRE2Count || hi > maxRE2Count {
				p.needBT = true
			}
			var q string
			switch {
			case hi == -2:
				q = "{" + strconv.Itoa(lo) + "}"
			case hi == -1:
				q = "{" + strconv.Itoa(lo) + ",}"
			default:
				q = "{" + strconv.Itoa(lo) + "," + strconv.Itoa(hi) + "}"
			}
			p.pos += n
			if p.peek(0) == '?' {
				q += "?"
				p.pos++
			}
			p.emit(q, q)
			canQuantify = false
		case '^', '$':
			p.emit(string(c), string(c))
			p.pos++
			canQuantify = false
		case '.':
			p.emit(re2Dot, ecmaDot)
			p.pos++
			canQuantify = true
		case '[':
			if err := p.class(); err != nil {
				return err
			}
			canQuantify = true
		case '\\':
			q, err := p.atomEscape()
			if err != nil {
				return err
			}
			canQuantify = q
		default:
			p.literal(c)
			p.pos++
			canQuantify = true
		}
	}
	if len(p.stack) > 0 {
		return p.errorf("unterminated group")
	}
	return nil
}

// openGroup handles '(' at p.pos.
func (p *jsParser) openGroup() error {
	if p.peek(1) != '?' {
		p.nextGroup++
		p.re.WriteString("(")
		// regexp2 numbers named groups after unnamed ones; naming every
		// group by its JavaScript index keeps backreferences exact.
		p.ec.WriteString("(?<g" + strconv.Itoa(p.nextGroup) + ">")
		p.stack = append(p.stack, groupCapture)
		p.pos++
		return nil
	}
	switch p.peek(2) {
	case ':':
		p.emit("(?:", "(?:")
		p.stack = append(p.stack, groupPlain)
		p.pos += 3
		return nil
	case '=', '!':
		p.needBT = true
		s := "(?" + string(p.peek(2))
		p.emit(s, s)
		p.stack = append(p.stack, groupLookahead)
		p.pos += 3
		return nil
	case '<':
		if c := p.peek(3); c == '=' || c == '!' {
			p.needBT = true
			s := "(?<" + string(c)
			p.emit(s, s)
			p.stack = append(p.stack, groupLookbehind)
			p.pos += 4
			return nil
		}
		// Named group; the prescan validated the name.
		end := p.pos + 3
		for end < len(p.src) && p.src[end] != '>' {
			end++
		}
		if end >= len(p.src) {
			return p.errorf("unterminated group name")
		}
		p.needBT = true
		p.nextGroup++
		p.re.WriteString("(")
		p.ec.WriteString("(?<g" + strconv.Itoa(p.nextGroup) + ">")
		p.stack = append(p.stack, groupCapture)
		p.pos = end + 1
		return nil
	}
	// (?i), (?P<n>, (?#…), (?>…) … are not JavaScript.
	return p.errorf("invalid group")
}

// bracedQuantifier recognises {n}, {n,} and {n,m} at p.pos. hi is -2 for
// {n}, -1 for {n,}; n is the length in runes.
func (p *jsParser) bracedQuantifier() (lo, hi, n int, ok bool) {
	i := p.pos + 1
	num := func() (int, bool) {
		start, v := i, 0
		for i < len(p.src) && p.src[i] >= '0' && p.src[i] <= '9' {
			if v < 1<<30 {
				v = v*10 + int(p.src[i]-'0')
			}
			i++
		}
		return v, i > start
	}
	lo, ok = num()
	if !ok || i >= len(p.src) {
		return 0, 0, 0, false
	}
	switch p.src[i] {
	case '}':
		return lo, -2, i + 1 - p.pos, true
	case ',':
		i++
		if i < len(p.src) && p.src[i] == '}' {
			return lo, -1, i + 1 - p.pos, true
		}
		hi, ok = num()
		if !ok || i >= len(p.src) || p.src[i] != '}' {
			return 0, 0, 0, false
		}
		return lo, hi, i + 1 - p.pos, true
	}
	return 0, 0, 0, false
}

// atomEscape handles '\' outside a class at p.pos and reports whether the
// result can take a quantifier.
func (p *jsParser) atomEscape() (bool, error) {
	c := p.peek(1)
	switch c {
	case -1:
		return false, p.errorf(`\ at end of pattern`)
	case 'b':
		// RE2's \b is ASCII as in JavaScript; regexp2's counts every
		// Unicode letter as a word character, so its spelling is explicit.
		p.emit(`\b`, ecmaBoundary)
		p.pos += 2
		return false, nil
	case 'B':
		p.emit(`\B`, ecmaNonBoundary)
		p.pos += 2
		return false, nil
	case 'd', 'D', 'w', 'W':
		s := `\` + string(c)
		p.emit(s, s)
		p.pos += 2
		return true, nil
	case 's':
		p.emit("["+re2Space+"]", "["+ecmaSpace+"]")
		p.pos += 2
		return true, nil
	case 'S':
		p.emit("[^"+re2Space+"]", "[^"+ecmaSpace+"]")
		p.pos += 2
		return true, nil
	case 'k':
		if p.names == nil { // Annex B: \k is a plain "k" without named groups
			p.literal('k')
			p.pos += 2
			return true, nil
		}
		if p.peek(2) != '<' {
			return false, p.errorf(`invalid named reference`)
		}
		end := p.pos + 3
		for end < len(p.src) && p.src[end] != '>' {
			end++
		}
		idx, ok := p.names[string(p.src[min(p.pos+3, end):end])]
		if end >= len(p.src) || !ok {
			return false, p.errorf(`invalid named reference`)
		}
		p.backref(idx)
		p.pos = end + 1
		return true, nil
	case '1', '2', '3', '4', '5', '6', '7', '8', '9':
		end, v := p.pos+1, 0
		for end < len(p.src) && p.src[end] >= '0' && p.src[end] <= '9' {
			if v <= p.nGroups {
				v = v*10 + int(p.src[end]-'0')
			}
			end++
		}
		if v <= p.nGroups {
			p.backref(v)
			p.pos = end
			return true, nil
		}
	}
	r, n := p.characterEscape(false)
	p.pos += n
	p.literalOrSurrogate(r)
	return true, nil
}

func (p *jsParser) backref(idx int) {
	p.needBT = true
	p.re.WriteString(`\` + strconv.Itoa(idx)) // never compiled by RE2
	p.ec.WriteString(`\k<g` + strconv.Itoa(idx) + `>`)
}

// characterEscape decodes the escape at p.pos (the '\') that denotes one
// character and returns it with the escape's length in runes. A decoded
// UTF-16 surrogate is returned as is (0xD800–0xDFFF); outside a class a
// surrogate pair written as two \u escapes is combined. It never fails:
// under Annex B every unknown escape is the character itself.
func (p *jsParser) characterEscape(inClass bool) (rune, int) {
	c := p.peek(1)
	switch c {
	case 't':
		return '\t', 2
	case 'n':
		return '\n', 2
	case 'v':
		return '\v', 2
	case 'f':
		return '\f', 2
	case 'r':
		return '\r', 2
	case 'c':
		if l := p.peek(2); l >= 'a' && l <= 'z' || l >= 'A' && l <= 'Z' ||
			inClass && (l >= '0' && l <= '9' || l == '_') {
			return l % 32, 3
		}
		return '\\', 1 // Annex B: "\c" not followed by a letter is a backslash
	case 'x':
		if v, ok := p.hex(2, 2); ok {
			return v, 4
		}
		return 'x', 2
	case 'u':
		v, ok := p.hex(2, 4)
		if !ok {
			return 'u', 2
		}
		if !inClass && v >= 0xD800 && v <= 0xDBFF && p.peek(6) == '\\' && p.peek(7) == 'u' {
			if lo, ok := p.hex(8, 4); ok && lo >= 0xDC00 && lo <= 0xDFFF {
				return 0x10000 + (v-0xD800)<<10 + (lo - 0xDC00), 12
			}
		}
		return v, 6
	case '0', '1', '2', '3', '4', '5', '6', '7':
		// \0 alone is NUL; otherwise a legacy octal escape of at most
		// three digits and value 0377.
		v, n := int(c-'0'), 2
		for n < 4 {
			d := p.peek(n)
			if d < '0' || d > '7' || v*8+int(d-'0') > 0377 {
				break
			}
			v = v*8 + int(d-'0')
			n++
		}
		return rune(v), n
	}
	return c, 2 // identity escape: \8 \9 \a \e \z \A \p \Q \- \/ …
}

// hex reads exactly n hex digits at offset off from p.pos.
func (p *jsParser) hex(off, n int) (rune, bool) {
	var v rune
	for i := 0; i < n; i++ {
		d := p.peek(off + i)
		switch {
		case d >= '0' && d <= '9':
			v = v*16 + d - '0'
		case d >= 'a' && d <= 'f':
			v = v*16 + d - 'a' + 10
		case d >= 'A' && d <= 'F':
			v = v*16 + d - 'A' + 10
		default:
			return 0, false
		}
	}
	return v, true
}

// literalOrSurrogate emits r; a lone surrogate can never occur in a Go
// string, so it matches nothing.
func (p *jsParser) literalOrSurrogate(r rune) {
	if isSurrogate(r) {
		p.emit(re2Never, ecmaNever)
		return
	}
	p.literal(r)
}

func isSurrogate(r rune) bool { return r >= 0xD800 && r <= 0xDFFF }

// literal emits r escaped so that neither engine gives it a meaning.
func (p *jsParser) literal(r rune) {
	writeLiteral(&p.re, &p.ec, r)
}

func writeLiteral(re, ec *strings.Builder, r rune) {
	switch {
	case r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9':
		re.WriteRune(r)
		ec.WriteRune(r)
	case r > ' ' && r < 0x7f: // ASCII punctuation: \ + it is literal in both
		re.WriteByte('\\')
		re.WriteRune(r)
		ec.WriteByte('\\')
		ec.WriteRune(r)
	default:
		re.WriteString(`\x{` + strconv.FormatInt(int64(r), 16) + `}`)
		if r <= 0xFFFF {
			fmt.Fprintf(ec, `\u%04X`, r)
		} else {
			ec.WriteRune(r)
		}
	}
}
