package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"strings"

	"github.com/hookside/hookside/internal/jsonexact"
	"github.com/hookside/hookside/internal/jsonpos"
	"github.com/hookside/hookside/internal/jsonscan"
	"github.com/hookside/hookside/internal/nearmiss"
	"github.com/hookside/hookside/rpc"
	"github.com/hookside/hookside/v2bridge"
	"github.com/hookside/hookside/v2bridge/expr"
)

// The JSON files of `hookside v2` (definitions create|update|upsert --file,
// emit --file) are reported like a broken hook configuration: every error
// about the file's content starts with "file:line:col: " of the byte or
// value it is about (stdin is named "<stdin>").

// v2File is a JSON file read by a v2 command: its name for messages and
// its bytes.
type v2File struct {
	name string
	raw  []byte
}

// readV2File reads path ("-" = stdin) for flag. A leading UTF-8 byte order
// mark is dropped (jsonpos.SkipBOM, as for configuration files and hooks
// run --input; it takes no column, so positions are unchanged). No path, a
// file over maxInputBytes (64 MiB), one that is not UTF-8 (RFC 8259 §8.1),
// not JSON, or that names a member twice in one object (refused over the
// wire too) is an *InvalidError on flag, the last three with the position
// of the bad byte, the syntax error or the repeated name; an unreadable
// file is the *fs.PathError.
func readV2File(path, flag string) (v2File, error) {
	if path == "" {
		return v2File{}, &v2bridge.InvalidError{Field: flag, Reason: "required (a JSON file, or - for stdin)"}
	}
	f := v2File{name: path}
	if path == "-" {
		f.name = "<stdin>"
	}
	data, err := readBounded(path, stdinReader)
	if errors.Is(err, errInputTooLarge) {
		return v2File{}, &v2bridge.InvalidError{Field: flag, Reason: f.name + ": " + err.Error()}
	}
	if err != nil {
		return v2File{}, err
	}
	if msg, bad := notUTF8(f.name, data, ""); bad {
		return v2File{}, &v2bridge.InvalidError{Field: flag, Reason: msg}
	}
	var base int
	f.raw, base = jsonpos.SkipBOM(data)
	if !json.Valid(f.raw) {
		var v any
		return v2File{}, &v2bridge.InvalidError{Field: flag, Reason: f.decodeError(jsonexact.Unmarshal(f.raw, &v))}
	}
	if name, off, dup := jsonscan.DuplicateAt(f.raw); dup {
		return v2File{}, &v2bridge.InvalidError{Field: flag, Reason: fmt.Sprintf("%s: duplicate member %q: this name appears twice in one object (each member name may appear once, as in the v2 methods over the wire)", jsonpos.At(f.name, data, base+off), name)}
	}
	return f, nil
}

// errInputTooLarge is readBounded's error past maxInputBytes.
var errInputTooLarge = fmt.Errorf("larger than %d MiB, the most hookside reads as one JSON text (the app-server's frame limit)", maxInputBytes>>20)

// maxInputBytes bounds the JSON a command reads from a file or stdin
// (hooks run|explain --input, v2 … --file): rpc.MaxFrameBytes (64 MiB),
// the bound of the same JSON sent over the wire.
const maxInputBytes = rpc.MaxFrameBytes

// readBounded reads the file at path, or stdin when path is "-", up to
// maxInputBytes; errInputTooLarge when there is more (/dev/zero ends at
// once). Open and read errors are the *fs.PathError.
func readBounded(path string, stdin io.Reader) ([]byte, error) {
	r := stdin
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	}
	data, err := io.ReadAll(io.LimitReader(r, maxInputBytes+1))
	if err == nil && len(data) > maxInputBytes {
		return nil, errInputTooLarge
	}
	return data, err
}

// notUTF8 is why data, a JSON file or input the CLI read as name, is not
// UTF-8 (RFC 8259 §8.1), at its first bad byte: "name:line:col: " +
// subject ("the input is ", or "") + "not valid UTF-8: byte 0xe9 at offset
// 56 (…)"; the offset counts bytes from 0, a byte order mark included.
// bad false when data is UTF-8.
func notUTF8(name string, data []byte, subject string) (msg string, bad bool) {
	off, bad := jsonpos.InvalidUTF8(data)
	if !bad {
		return "", false
	}
	return fmt.Sprintf("%s: %snot valid UTF-8: byte 0x%02x at offset %d (JSON text must be UTF-8, RFC 8259 §8.1)", jsonpos.At(name, data, off), subject, data[off], off), true
}

// decodeError is the text of err, from decoding f: "file:line:col: " and
// what is wrong, in JSON terms ("session.id must be a string, got number").
func (f v2File) decodeError(err error) string {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	off, ok := jsonpos.ErrorOffset(f.raw, err)
	switch {
	case !ok:
		return f.name + ": " + err.Error()
	case errors.As(err, &se):
		sf := jsonpos.SyntaxFault(f.raw, se)
		return fmt.Sprintf("%s: invalid JSON: %s", jsonpos.At(f.name, f.raw, sf.Off), sf.Text)
	case errors.As(err, &te) && te.Field != "":
		return fmt.Sprintf("%s: %s must be %s, got %s", jsonpos.At(f.name, f.raw, off), te.Field, jsonpos.KindName(te.Type, jsonpos.Exact), te.Value)
	case errors.As(err, &te):
		return fmt.Sprintf("%s: must be %s, got %s", jsonpos.At(f.name, f.raw, off), jsonpos.KindName(te.Type, jsonpos.Exact), te.Value)
	}
	return f.name + ": " + err.Error()
}

// locate adds f's position to err when it is an *InvalidError on a field
// of the file's document (Field prefix itself, or under prefix + "."; ""
// = the document's own fields): the value's "file:line:col: ", or that of
// its nearest enclosing value present in the file (a required key that is
// missing points at the object that lacks it). Every validation problem
// in its data gets its position too (locatedProblem.At). Other errors are
// returned as they are.
func (f v2File) locate(err error, prefix string) error {
	var ie *v2bridge.InvalidError
	if !errors.As(err, &ie) {
		return err
	}
	path, ok := ie.Field, prefix == ""
	if !ok {
		path, ok = strings.CutPrefix(ie.Field, prefix)
		ok = ok && (path == "" || path[0] == '.')
		path = strings.TrimPrefix(path, ".")
	}
	if !ok {
		return err
	}
	out := &v2bridge.InvalidError{Field: ie.Field, Reason: ie.Reason, Data: ie.Data}
	if at, found := f.at(path); found {
		out.Reason = at + ": " + ie.Reason
	}
	if data, isMap := ie.Data.(map[string]any); isMap {
		if ps, isProblems := data["problems"].([]expr.Problem); isProblems && prefix != "" {
			out.Data = map[string]any{"problems": f.locateProblems(ps)}
		}
	}
	return out
}

// locatedProblem is a validation problem of a definition read from a file,
// with "file:line:col" of its value (or of the nearest enclosing value in
// the file) in at.
type locatedProblem struct {
	expr.Problem
	At string `json:"at,omitempty"`
}

// locateProblems is ps, problems of the definition or patch f holds, each
// with the position of its value (at).
func (f v2File) locateProblems(ps []expr.Problem) []locatedProblem {
	located := make([]locatedProblem, len(ps))
	for i, p := range ps {
		located[i].Problem = p
		located[i].At, _ = f.at(p.Path)
	}
	return located
}

// line is the problem as the CLI prints it after its severity: "PATH:
// MESSAGE (FILE:LINE:COL)", without the path for the document itself and
// without the position when it has none.
func (p locatedProblem) line() string {
	s := p.Message
	if p.Path != "" {
		s = p.Path + ": " + s
	}
	if p.At != "" {
		s += " (" + p.At + ")"
	}
	return s
}

// at is "file:line:col" of the value at path in f (object keys joined by
// ".", elements as "[i]"), or of its nearest enclosing value present in
// the file; found is false when not even the document is there.
func (f v2File) at(path string) (string, bool) {
	for {
		if off, found := jsonpos.PathOffset(f.raw, path); found {
			return jsonpos.At(f.name, f.raw, off), true
		}
		i := strings.LastIndexAny(path, ".[")
		if i < 0 {
			if path == "" {
				return "", false
			}
			i = 0
		}
		path = path[:i]
	}
}

// problemLines writes, when err carries more than one located validation
// problem, one line per problem: "  file:line:col: severity code: message".
func problemLines(w io.Writer, err error) {
	var ie *v2bridge.InvalidError
	if !errors.As(err, &ie) {
		return
	}
	data, _ := ie.Data.(map[string]any)
	ps, _ := data["problems"].([]locatedProblem)
	if len(ps) < 2 {
		return
	}
	for _, p := range ps {
		at := p.At
		if at == "" {
			at = p.Path
		}
		fmt.Fprintf(w, "  %s: %s %s: %s\n", at, p.Severity, p.Code, p.Message)
	}
}

// emitUnknownMembers is a warning (unknown_member) for each member of raw,
// the v2/events/emit params of `v2 emit --file`, that the params do not
// define (the payload's are its own), at its path: the message names the
// member it most likely misspells (nearmiss.Suggest: "did you mean
// \"session\"?"), else the members the object has. Such a member is
// ignored, as over the wire.
func emitUnknownMembers(raw []byte) []expr.Problem {
	var out []expr.Problem
	for _, u := range rpc.UnknownMembers(reflect.TypeFor[v2bridge.EmitParams](), raw) {
		msg := fmt.Sprintf("unknown member %q is ignored: the object has %s", u.Name, strings.Join(u.Known, ", "))
		if m := nearmiss.Suggest(u.Name, u.Known); m != "" {
			msg = fmt.Sprintf("unknown member %q is ignored; did you mean %q?", u.Name, m)
		}
		out = append(out, expr.Problem{Path: u.Path, Code: expr.CodeUnknownMember, Message: msg, Severity: expr.SeverityWarning})
	}
	return out
}
