package jsonscan

import (
	"bytes"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/hookside/hookside/internal/jsonexact"
	"github.com/hookside/hookside/internal/jsonpos"
	"github.com/hookside/hookside/internal/jsonskip"
)

// Duplicate finds the first member, in any object at any depth of b, whose
// name repeats the name of an earlier member of the same object (RFC 8259
// §4: names SHOULD be unique; parsers disagree on which one counts, so a
// host and hookside could read different values from one frame). Names
// are compared as encoding/json decodes them: escapes processed, invalid
// UTF-8 as U+FFFD ("\u0061" repeats "a"). path is where the repeated
// member sits, as jsonpos.Key writes it: names joined by ".", array
// elements as "[i]" ("input.toolInput.command", "workspaces[1].id"; a
// repeat at the top level is its name alone), a name holding ".", "[",
// "]", "'" or "\" (or empty) in brackets and single quotes ("['a.b']",
// "x['a.b']"), so {"a.b":1,"a.b":2} and {"a":{"b":1,"b":2}} have
// different paths. found is false when no name repeats.
//
// b must be valid JSON (json.Valid): Duplicate does not validate it. Cost:
// one pass over b; no allocation for objects of up to 16 members whose
// names have no escape (a larger object's names go into a map).
func Duplicate(b []byte) (path string, found bool) {
	path, _, found = DuplicateAt(b)
	return path, found
}

// DuplicateAt is Duplicate with off, the byte offset in b of the repeated
// member: the opening quote of its name, in the object that names it a
// second time (so in {"x":{"a":1},"a":2,"a":3} the third "a"). A path
// names no place alone (a name may hold a "."; the same path can be
// written twice), so a position for a reader comes from off (0 when found
// is false). Cost as Duplicate's.
func DuplicateAt(b []byte) (path string, off int, found bool) {
	s := dupScan{b: b}
	if _, found = s.value(jsonskip.WS(b, 0)); !found {
		return "", 0, false
	}
	slices.Reverse(s.path)
	for _, e := range s.path {
		if e.name == nil {
			path += "[" + strconv.Itoa(e.index) + "]"
		} else {
			path = jsonpos.Key(path, string(e.name))
		}
	}
	return path, s.off, true
}

// dupScan is one walk of Duplicate; path collects, from the repeated
// member outwards, where it was found, and off is the offset of the
// repeated member's name.
type dupScan struct {
	b    []byte
	path []pathElem
	off  int
}

// pathElem is a member name, or (name nil) an array index.
type pathElem struct {
	name  []byte
	index int
}

// smallObject is how many member names an object keeps in a list before
// they go into a map.
const smallObject = 16

// value skips the value at b[i] and returns the index after it; found is
// true (and the index meaningless) when a name repeats inside it.
func (s *dupScan) value(i int) (int, bool) {
	b := s.b
	if i >= len(b) {
		return i, false
	}
	switch b[i] {
	case '{':
		return s.object(i)
	case '[':
		return s.array(i)
	}
	return jsonskip.Value(b, i), false // a string or a scalar: b is valid JSON
}

func (s *dupScan) object(i int) (int, bool) {
	b := s.b
	var small [smallObject][]byte
	names := small[:0]
	var set map[string]struct{}
	i = jsonskip.WS(b, i+1)
	if i < len(b) && b[i] == '}' {
		return i + 1, false
	}
	for i < len(b) {
		kEnd := jsonskip.String(b, i)
		if kEnd < 0 {
			return len(b), false // not valid JSON: not ours to judge
		}
		name := memberName(b[i:kEnd])
		repeated := false
		if set != nil {
			_, repeated = set[string(name)]
			set[string(name)] = struct{}{}
		} else {
			for _, n := range names {
				if bytes.Equal(n, name) {
					repeated = true
					break
				}
			}
			if names = append(names, name); len(names) == smallObject {
				set = make(map[string]struct{}, 2*smallObject)
				for _, n := range names {
					set[string(n)] = struct{}{}
				}
			}
		}
		if repeated {
			s.path = append(s.path, pathElem{name: name})
			s.off = i
			return 0, true
		}
		i = jsonskip.WS(b, kEnd)
		if i >= len(b) || b[i] != ':' {
			return len(b), false
		}
		end, found := s.value(jsonskip.WS(b, i+1))
		if found {
			s.path = append(s.path, pathElem{name: name})
			return 0, true
		}
		i = jsonskip.WS(b, end)
		if i >= len(b) || b[i] == '}' {
			return i + 1, false
		}
		i = jsonskip.WS(b, i+1) // past ','
	}
	return len(b), false
}

func (s *dupScan) array(i int) (int, bool) {
	b := s.b
	i = jsonskip.WS(b, i+1)
	if i < len(b) && b[i] == ']' {
		return i + 1, false
	}
	for n := 0; i < len(b); n++ {
		end, found := s.value(i)
		if found {
			s.path = append(s.path, pathElem{index: n})
			return 0, true
		}
		i = jsonskip.WS(b, end)
		if i >= len(b) || b[i] == ']' {
			return i + 1, false
		}
		i = jsonskip.WS(b, i+1) // past ','
	}
	return len(b), false
}

// Name returns the decoded name of a raw key as Members.Next gives it
// (quotes included): the bytes between the quotes when they hold no escape
// and are valid UTF-8 (no copy), else what encoding/json decodes the key
// to ("\u0061" is "a"; invalid UTF-8 becomes U+FFFD).
func Name(key []byte) []byte { return memberName(key) }

func memberName(key []byte) []byte {
	body := key[1 : len(key)-1]
	plain := true
	ascii := true
	for _, c := range body {
		if c == '\\' {
			plain = false
			break
		}
		if c >= utf8.RuneSelf {
			ascii = false
		}
	}
	if plain && (ascii || utf8.Valid(body)) {
		return body
	}
	var name string
	_ = jsonexact.Unmarshal(key, &name) // a valid JSON string
	return []byte(name)
}
