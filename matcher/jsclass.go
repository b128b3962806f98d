package matcher

import (
	"fmt"
	"strconv"
	"strings"
)

// Character classes of the JavaScript pattern translation (see jsregex.go).

// classItem is one parsed class atom: a character or a class escape.
type classItem struct {
	r   rune   // the character, when esc == ""
	esc string // "d", "D", "w", "W", "s", "S"
}

// class handles '[' … ']' at p.pos.
func (p *jsParser) class() error {
	start := p.pos
	p.pos++
	negated := p.peek(0) == '^'
	if negated {
		p.pos++
	}
	var re, ec strings.Builder
	empty := true
	add := func(it classItem) {
		switch it.esc {
		case "":
			if isSurrogate(it.r) { // can never match a Go string: drop
				return
			}
			writeLiteral(&re, &ec, it.r)
		case "s":
			re.WriteString(re2Space)
			ec.WriteString(ecmaSpace)
		case "S":
			p.needBT = true // RE2 cannot negate inside a class
			re.WriteString(`\S`)
			ec.WriteString(`\S`)
		default:
			re.WriteString(`\` + it.esc)
			ec.WriteString(`\` + it.esc)
		}
		empty = false
	}
	for {
		c := p.peek(0)
		if c == -1 {
			p.pos = start
			return p.errorf("unterminated character class")
		}
		if c == ']' {
			p.pos++
			break
		}
		a, err := p.classAtom()
		if err != nil {
			return err
		}
		if p.peek(0) != '-' || p.peek(1) == ']' || p.peek(1) == -1 {
			add(a)
			continue
		}
		p.pos++ // '-'
		b, err := p.classAtom()
		if err != nil {
			return err
		}
		if a.esc != "" || b.esc != "" { // Annex B: [\d-z] is \d, '-', 'z'
			add(a)
			add(classItem{r: '-'})
			add(b)
			continue
		}
		if a.r > b.r {
			return p.errorf("range out of order in character class")
		}
		lo, hi := a.r, b.r
		// Drop the surrogate block, which no Go string holds.
		switch {
		case lo >= 0xD800 && hi <= 0xDFFF:
			continue
		case lo >= 0xD800 && lo <= 0xDFFF:
			lo = 0xE000
		case hi >= 0xD800 && hi <= 0xDFFF:
			hi = 0xD7FF
		}
		writeRangeBound(&re, &ec, lo)
		re.WriteByte('-')
		ec.WriteByte('-')
		writeRangeBound(&re, &ec, hi)
		empty = false
	}
	switch {
	case empty && negated: // [^] matches any character
		p.emit(re2Any, ecmaAny)
	case empty: // [] matches nothing
		p.emit(re2Never, ecmaNever)
	case negated:
		p.emit("[^"+re.String()+"]", "[^"+ec.String()+"]")
	default:
		p.emit("["+re.String()+"]", "["+ec.String()+"]")
	}
	return nil
}

// classAtom parses one character or class escape inside a class.
func (p *jsParser) classAtom() (classItem, error) {
	c := p.peek(0)
	if c != '\\' {
		p.pos++
		return classItem{r: c}, nil
	}
	switch e := p.peek(1); e {
	case -1:
		return classItem{}, p.errorf(`\ at end of pattern`)
	case 'd', 'D', 'w', 'W', 's', 'S':
		p.pos += 2
		return classItem{esc: string(e)}, nil
	case 'b':
		p.pos += 2
		return classItem{r: '\b'}, nil
	case 'k':
		if p.names != nil {
			return classItem{}, p.errorf(`invalid escape \k in character class`)
		}
	case '8', '9':
		p.pos += 2
		return classItem{r: e}, nil
	}
	r, n := p.characterEscape(true)
	p.pos += n
	return classItem{r: r}, nil
}

// writeRangeBound writes one end of a class range. Punctuation is written as
// a code point escape, not as a backslash and the character: regexp2
// misreads an escaped "-" at either end of a range (`[\--C]` would not hold
// "0").
func writeRangeBound(re, ec *strings.Builder, r rune) {
	if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
		re.WriteRune(r)
		ec.WriteRune(r)
		return
	}
	re.WriteString(`\x{` + strconv.FormatInt(int64(r), 16) + `}`)
	if r <= 0xFFFF {
		fmt.Fprintf(ec, `\u%04X`, r)
	} else {
		ec.WriteRune(r)
	}
}
