// Package jsonpos finds where in a JSON document something is, for
// diagnostics of the form "path:line:col: message": the 1-based line and
// column of a byte offset, the offset a decoding error is about, and the
// offset of the value at a field path ("action.hook.command",
// "condition.conditions[1].op") and the path of the value a type error is
// about, and names the JSON value a Go type decodes from. Used by the hook
// configuration loader (runner/config), by the V2 CLI for the files it
// reads and by the JSON-RPC server for its -32602 errors.
package jsonpos

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"
)

// LineCol converts a byte offset in data to a 1-based line and a 1-based
// column counted in characters (Unicode code points: "é" and a tab are one
// column each, an invalid byte one too), not bytes. A leading UTF-8 byte
// order mark (SkipBOM) is not counted: editors do not show it. Offsets
// past the end point just after the last byte.
func LineCol(data []byte, off int) (line, col int) {
	if off > len(data) {
		off = len(data)
	}
	if off < 0 {
		off = 0
	}
	prefix := data[:off]
	line = 1 + bytes.Count(prefix, []byte{'\n'})
	lastNL := bytes.LastIndexByte(prefix, '\n')
	if lastNL < 0 {
		prefix, _ = SkipBOM(prefix)
	}
	col = 1 + utf8.RuneCount(prefix[lastNL+1:])
	return line, col
}

// At is "name:line:col" of offset off in data.
func At(name string, data []byte, off int) string {
	line, col := LineCol(data, off)
	return name + ":" + strconv.Itoa(line) + ":" + strconv.Itoa(col)
}

// SyntaxErrorOffset returns the offset of the byte a *json.SyntaxError is
// about: the decoder's Offset counts the offending byte as read, except for
// "unexpected end of JSON input", where it is the end.
func SyntaxErrorOffset(data []byte, se *json.SyntaxError) int {
	off := int(se.Offset)
	if off > 0 && off <= len(data) && !Truncated(se) {
		off--
	}
	return off
}

// Truncated reports whether se is encoding/json's "unexpected end of JSON
// input": the document stops inside a value.
func Truncated(se *json.SyntaxError) bool { return strings.Contains(se.Error(), "unexpected end") }

// TypeErrorOffset returns the offset of the value a *json.UnmarshalTypeError
// from decoding data is about: its first byte (the decoder's Offset is
// just after the value's first token). data must be valid JSON, as it is
// whenever json.Unmarshal reports a type error.
func TypeErrorOffset(data []byte, te *json.UnmarshalTypeError) int {
	w := newWalker(data)
	for {
		_, start, err := w.next()
		if err != nil || w.prev >= int(te.Offset) {
			return min(start, len(data))
		}
	}
}

// TypeErrorPath returns the path, as Key writes it and PathOffset takes it
// ("env.A", "pluginDirs[1]", "nested.list[1].b", "env['a.b']"), of the value a
// *json.UnmarshalTypeError from decoding data is about, whose Field names
// struct fields only ("env" for an entry of a map, "pluginDirs" for an
// element of a slice). It is "" for the document itself, and when data
// has no value there. data must be valid JSON, as for TypeErrorOffset.
func TypeErrorPath(data []byte, te *json.UnmarshalTypeError) string {
	w := newWalker(data)
	tok, _, err := w.next()
	if err != nil {
		return ""
	}
	path, _ := w.pathTo(tok, "", int(te.Offset))
	return path
}

// ErrorOffset returns the offset a *json.SyntaxError or
// *json.UnmarshalTypeError (anywhere in err's chain) from decoding data is
// about; ok is false for other errors.
func ErrorOffset(data []byte, err error) (off int, ok bool) {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return SyntaxErrorOffset(data, se), true
	case errors.As(err, &te):
		return TypeErrorOffset(data, te), true
	}
	return 0, false
}

// PathOffset returns the offset of the value at path in data: object keys
// joined by ".", array elements as "[i]" ("" is the document itself), a
// key in brackets and single quotes as Key writes it ("x['a.b']"). A key
// written without brackets may itself contain dots. ok is false when data has no value there (or is
// not valid JSON up to it).
func PathOffset(data []byte, path string) (off int, ok bool) {
	w := newWalker(data)
	tok, start, err := w.next()
	if err != nil {
		return 0, false
	}
	return w.find(tok, start, path)
}

// walker reads data's tokens and knows where each starts.
type walker struct {
	data []byte
	dec  *json.Decoder
	prev int // the offset just after the last token read
}

func newWalker(data []byte) *walker {
	return &walker{data: data, dec: json.NewDecoder(bytes.NewReader(data))}
}

// next reads one token and returns it with its offset.
func (w *walker) next() (json.Token, int, error) {
	start := w.prev
	for start < len(w.data) && strings.IndexByte(" \t\r\n,:", w.data[start]) >= 0 {
		start++
	}
	tok, err := w.dec.Token()
	w.prev = int(w.dec.InputOffset())
	return tok, start, err
}

// each calls fn for each member of the object, or element of the array,
// whose first token tok was just read, in order, with its key (an object
// member) or its index (an array element; i is -1 for a member) and the
// first token of its value and that token's offset, until fn returns
// true. fn reads the whole value (skip, or a walk of its own). each
// reports whether fn returned true; when not, the whole value has been
// read, or it is a scalar, or the decoder failed: a json.Decoder's error
// repeats on every later Token, so each enclosing loop ends at its next
// read.
func (w *walker) each(tok json.Token, fn func(key string, i int, vt json.Token, vs int) bool) bool {
	switch tok {
	case json.Delim('{'):
		for {
			kt, _, err := w.next()
			if err != nil || kt == json.Delim('}') {
				return false
			}
			vt, vs, err := w.next()
			if err != nil {
				return false
			}
			if fn(kt.(string), -1, vt, vs) {
				return true
			}
		}
	case json.Delim('['):
		for i := 0; ; i++ {
			et, es, err := w.next()
			if err != nil || et == json.Delim(']') {
				return false
			}
			if fn("", i, et, es) {
				return true
			}
		}
	}
	return false
}

// find looks for rest inside the value whose first token tok is at start.
// When it is not found, the whole value has been read (or the decoder
// failed, see each).
func (w *walker) find(tok json.Token, start int, rest string) (off int, found bool) {
	if rest == "" {
		return start, true
	}
	idx, inElem, isElem := element(rest)
	found = w.each(tok, func(key string, i int, vt json.Token, vs int) bool {
		sub, match := inElem, isElem && i == idx
		if i < 0 {
			sub, match = member(rest, key)
		}
		if !match {
			w.skip(vt)
			return false
		}
		off, found = w.find(vt, vs, sub)
		return found
	})
	return off, found
}

// pathTo looks for the value whose first token ends at or after off (the
// decoder's offset for a type error, as in TypeErrorOffset), starting with
// the value at path ("" for the document) whose first token tok was just
// read; member names join path as Key has it. When it is not found, the
// whole value has been read (or the decoder failed, see each).
func (w *walker) pathTo(tok json.Token, path string, off int) (found string, ok bool) {
	if w.prev >= off {
		return path, true
	}
	ok = w.each(tok, func(key string, i int, vt json.Token, _ int) bool {
		sub := path + "[" + strconv.Itoa(i) + "]"
		if i < 0 {
			sub = Key(path, key)
		}
		found, ok = w.pathTo(vt, sub, off)
		return ok
	})
	return found, ok
}

// skip reads the rest of the value whose first token is tok (up to a
// decoder error).
func (w *walker) skip(tok json.Token) {
	if tok != json.Delim('{') && tok != json.Delim('[') {
		return
	}
	for depth := 1; depth > 0; {
		t, _, err := w.next()
		if err != nil {
			return
		}
		switch t {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
	}
}

// member reports whether path starts with the object key k, and the path
// inside k's value. A name in brackets and quotes (Key's form) is k
// exactly; otherwise path may name k as written, dots included.
func member(path, k string) (string, bool) {
	if name, rest, ok := quotedKeyAt(path); ok {
		return strings.TrimPrefix(rest, "."), name == k
	}
	if !strings.HasPrefix(path, k) {
		return "", false
	}
	switch rest := path[len(k):]; {
	case rest == "":
		return "", true
	case rest[0] == '.':
		return rest[1:], true
	case rest[0] == '[':
		return rest, true
	}
	return "", false
}

// element parses a leading "[i]" of path: the index and the path inside
// that element.
func element(path string) (int, string, bool) {
	if !strings.HasPrefix(path, "[") {
		return 0, "", false
	}
	end := strings.IndexByte(path, ']')
	if end < 0 {
		return 0, "", false
	}
	i, err := strconv.Atoi(path[1:end])
	if err != nil || i < 0 {
		return 0, "", false
	}
	return i, strings.TrimPrefix(path[end+1:], "."), true
}
