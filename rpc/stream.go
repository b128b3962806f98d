package rpc

import (
	"bytes"
	"encoding/json"
	"errors"
	"log/slog"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/hookside/hookside/internal/jsonpos"
	"github.com/hookside/hookside/internal/jsonscan"
	"github.com/hookside/hookside/internal/steps"
	"github.com/sourcegraph/jsonrpc2"
)

// objectStream is the shim in front of github.com/sourcegraph/jsonrpc2: the
// library's own stream closes the connection on malformed JSON, batches and
// non-integer ids. This stream answers those frames itself (-32700, -32600)
// and builds each well-formed request from the scanned envelope itself
// (the library would decode the frame twice more, params into a generic
// tree and back). Only responses to server→client requests go on to the
// library, which matches them to its calls (PROTOCOL.md §1).
//
// With responses set (Serve), the dispatcher reads the stream (next
// request: nextRequest) and responses reach the library's ReadObject
// through the channel; without it (tests), ReadObject reads the stream and
// hands each request to deliver.
type objectStream struct {
	f      framer
	log    *slog.Logger
	closer func() error
	// deliver receives each incoming request and notification, in
	// arrival order, on the goroutine reading the stream (no responses
	// channel only).
	deliver func(*jsonrpc2.Request)
	// responses carries each host reply, as the frame the library
	// decodes, from the reading goroutine to ReadObject; it is closed when
	// reading ends, readErr saying why.
	responses chan []byte
	readErr   error
}

// probe is the envelope of one incoming message, decoded loosely so that a
// field of the wrong type is an invalid request, not a parse error.
type probe struct {
	JSONRPC json.RawMessage `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  json.RawMessage `json:"method"`
	Result  json.RawMessage `json:"result"`
	Error   json.RawMessage `json:"error"`
	Params  json.RawMessage `json:"params"`
}

// errorFrame is an error reply written by the shim itself.
type errorFrame struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Error   struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

var nullID = json.RawMessage("null")

func (s *objectStream) replyError(id json.RawMessage, code int, msg string) {
	if id == nil {
		id = nullID
	}
	var ef errorFrame
	ef.JSONRPC = "2.0"
	ef.ID = id
	ef.Error.Code = code
	ef.Error.Message = msg
	b, _ := json.Marshal(ef)
	if err := s.f.WriteFrame(b); err != nil {
		s.log.Debug("write error reply", "err", err)
	}
}

// ReadObject implements jsonrpc2.ObjectStream: the next host reply, decoded
// into v (a reply the library refuses is answered -32600 and skipped).
func (s *objectStream) ReadObject(v any) error {
	for {
		var frame []byte
		if s.responses != nil {
			b, ok := <-s.responses
			if !ok {
				return s.readErr
			}
			frame = b
		} else {
			req, b, err := s.next()
			if err != nil {
				return err
			}
			if req != nil {
				s.deliver(req)
				continue
			}
			frame = b
		}
		if err := json.Unmarshal(frame, v); err != nil {
			// A response shape the library refuses: answer instead of
			// closing.
			s.replyError(nil, CodeInvalidRequest, "invalid request: "+err.Error())
			continue
		}
		return nil
	}
}

// nextRequest reads the stream until the next request or notification,
// passing host replies on to ReadObject; when reading fails (EOF) it
// closes responses with that error and returns it.
func (s *objectStream) nextRequest() (*jsonrpc2.Request, error) {
	for {
		req, resp, err := s.next()
		if err != nil {
			s.readErr = err
			close(s.responses)
			return nil, err
		}
		if req != nil {
			return req, nil
		}
		s.responses <- resp
	}
}

// next reads frames until a request (req) or a host reply (resp, the frame
// the library decodes), answering the frames it refuses itself; err is the
// framer's (EOF, a broken pipe).
func (s *objectStream) next() (req *jsonrpc2.Request, resp []byte, err error) {
	for {
		frame, err := s.f.ReadFrame()
		steps.Mark(steps.FrameRead)
		switch {
		case errors.Is(err, errFrameTooLarge):
			s.replyError(nil, CodeInvalidRequest, "invalid request: "+err.Error())
			continue
		case errors.Is(err, errBadHeader):
			s.replyError(nil, CodeParseError, "parse error: "+err.Error())
			continue
		case err != nil:
			return nil, nil, err
		}
		if len(bytes.TrimSpace(frame)) == 0 {
			s.replyError(nil, CodeInvalidRequest, "invalid request: empty frame")
			continue
		}
		p, id, code, msg, failCall := checkFrame(frame)
		if code != 0 {
			s.log.Debug("rejected frame", "code", code, "reason", msg)
			s.replyError(id, code, msg)
			if failCall {
				return nil, failedResponse(p.ID, code, msg), nil
			}
			continue
		}
		if p.Method != nil {
			steps.Mark(steps.FrameChecked)
			req, msg := request(p)
			if msg != "" {
				s.replyError(nil, CodeInvalidRequest, msg)
				continue
			}
			return req, nil, nil
		}
		return nil, responseFrame(p), nil
	}
}

// responseFrame rebuilds a host's reply from its exactly named members
// (topLevel), for the library: encoding/json would also take "Result" or
// "ID" for them, which a host's parser reads as other members.
func responseFrame(p probe) []byte {
	b := make([]byte, 0, len(p.ID)+len(p.Result)+len(p.Error)+40)
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	b = append(b, p.ID...)
	if p.Result != nil {
		b = append(append(b, `,"result":`...), p.Result...)
	}
	if p.Error != nil {
		b = append(append(b, `,"error":`...), p.Error...)
	}
	return append(b, '}')
}

// failedResponse is the error reply, with id, that a refused reply of the
// host becomes for the call it answers: code (-32600, or -32700 for a reply
// that is not UTF-8) with msg.
func failedResponse(id json.RawMessage, code int, msg string) []byte {
	var ef errorFrame
	ef.JSONRPC, ef.ID = "2.0", id
	ef.Error.Code, ef.Error.Message = code, msg
	b, _ := json.Marshal(ef)
	return b
}

// dupMemberMsg begins the -32600 message of a frame that names a member
// twice (docs/protocol.md §1).
const dupMemberMsg = "invalid request: duplicate member "

// tooDeepMsg is the -32600 message of a frame nested deeper than
// encoding/json reads (docs/protocol.md §1).
const tooDeepMsg = "invalid request: nested more than 10000 levels deep"

// checkFrame is validateFrame plus what validateFrame does not read past
// the top level: the validity of the whole frame, its UTF-8 and, in a
// host's reply, a member named twice at any depth (its result is read by
// hookside's own decoders; a request's params are checked by the
// dispatcher, checkParamsShape). code 0 means pass it on. failCall is true
// for a refused reply whose id hookside can read: the call it answers
// fails now, with code and msg, instead of waiting out its timeout.
func checkFrame(frame []byte) (p probe, id json.RawMessage, code int, msg string, failCall bool) {
	p, id, code, msg, dup := validateFrame(frame)
	if code != CodeParseError && !json.Valid(frame) {
		// Also a frame whose top level alone looks like a bad request
		// ({,} or a bad "jsonrpc" in a broken frame): it is not JSON.
		id, code, msg = invalidJSON(frame, validID(p.ID))
		dup = false
	}
	if code != CodeParseError {
		// JSON text exchanged between systems MUST be UTF-8 (RFC 8259
		// §8.1); encoding/json accepts any byte inside a string, and a
		// hook reading its stdin strictly would fail on it (fail open).
		// Checked after json.Valid, over any -32600 of the frame: it is
		// not a JSON text at all.
		if off, bad := jsonpos.InvalidUTF8(frame); bad {
			id, code, msg = badUTF8Reply(frame, off, p, id, code)
			return p, id, code, msg, p.Method == nil && validID(p.ID) != nil
		}
	}
	// A reply validateFrame passed has a valid id; one it refused for a
	// repeated top-level member may not.
	if p.Method == nil && (code == 0 || dup && validID(p.ID) != nil) {
		if path, found := jsonscan.Duplicate(frame); found {
			// Unless the id is the repeated member, the call it answers
			// fails now.
			return p, nil, CodeInvalidRequest, dupMemberMsg + `"` + path + `" in a reply (each member name may appear once in an object)`, path != "id"
		}
	}
	return p, id, code, msg, false
}

// badUTF8Msg begins the -32700 message of a frame that is not valid UTF-8
// (docs/protocol.md §1).
const badUTF8Msg = "parse error: the frame is not valid UTF-8"

// badUTF8Reply is the answer to a frame that is JSON but for invalid UTF-8
// at byte off (0-based, in the frame body): -32700 naming the byte and off, with
// the request's id when validateFrame could read one (code 0, or the id of
// its own error), id null for a reply (its id is the server's own) and when
// the id itself is not UTF-8.
func badUTF8Reply(frame []byte, off int, p probe, id json.RawMessage, code int) (json.RawMessage, int, string) {
	if code == 0 {
		id = nil
		if p.Method != nil {
			id = validID(p.ID)
		}
	}
	return id, CodeParseError, badUTF8Msg + ": byte 0x" + strconv.FormatUint(uint64(frame[off]), 16) +
		" at offset " + strconv.Itoa(off) + " (JSON-RPC frames must be UTF-8, RFC 8259 §8.1)"
}

// invalidJSON is the answer to a frame json.Valid refuses: -32600 with id
// when the frame is well-formed JSON only nested deeper than encoding/json's
// 10000 levels (arrays or objects, at the top or inside params alike), else
// -32700 with id null (PROTOCOL.md §1: a parse error carries a null id).
func invalidJSON(frame []byte, id json.RawMessage) (json.RawMessage, int, string) {
	if depth, ok := jsonscan.Depth(frame); ok && depth > jsonscan.MaxDepth {
		return id, CodeInvalidRequest, tooDeepMsg
	}
	return nil, CodeParseError, notJSONMsg(frame)
}

// notJSONMsg is the -32700 message of a frame that is not JSON: "parse
// error: the frame is not JSON" and, where encoding/json says why, the
// reason and its byte offset (0-based, in the frame body): a byte order
// mark (jsonpos.SyntaxMessage names it), other data after the value (two objects on one line), a
// frame cut short, or the syntax error with the slip it looks like (a
// trailing comma, single quotes, …). The id stays null (PROTOCOL.md §1).
func notJSONMsg(frame []byte) string {
	const head = "parse error: the frame is not JSON"
	f, bad := jsonpos.Check(frame)
	switch {
	case !bad:
		return head
	case f.Truncated:
		return head + ": it ends inside a value (cut short), at offset " + strconv.Itoa(f.Off)
	case f.Trailing:
		return head + ": other data follows its JSON value, at offset " + strconv.Itoa(f.Off) + " (a frame holds one JSON value)"
	}
	return head + ": " + f.Text + " at offset " + strconv.Itoa(f.Off)
}

// request builds the request or notification of a frame validateFrame
// passed with a method (p's values point into the frame buffer, which the
// framer reuses: params are copied). msg is the -32600 message of a frame
// that is a request and a response at once.
func request(p probe) (*jsonrpc2.Request, string) {
	if p.Result != nil || (p.Error != nil && !bytes.Equal(p.Error, []byte("null"))) {
		return nil, "invalid request: a message with a method cannot carry a result or an error"
	}
	req := &jsonrpc2.Request{Method: jsonString(p.Method)}
	switch {
	case p.ID == nil:
		req.Notif = true
	case p.ID[0] == '"':
		req.ID = jsonrpc2.ID{Str: jsonString(p.ID), IsString: true}
	default:
		n, _ := strconv.ParseUint(string(p.ID), 10, 64) // checked by validID
		req.ID = jsonrpc2.ID{Num: n}
	}
	if p.Params != nil {
		params := json.RawMessage(bytes.Clone(p.Params))
		req.Params = &params
	}
	return req, ""
}

// jsonString decodes a valid JSON string literal (a copy, not pointing into
// raw); escapes and invalid UTF-8 take encoding/json's path.
func jsonString(raw []byte) string {
	if s, ok := plainString(raw); ok {
		return s
	}
	var s string
	_ = json.Unmarshal(raw, &s) // raw is valid JSON
	return s
}

// validateFrame checks the top level of one frame (checkFrame adds the
// validity of the rest); code 0 means pass it on. id is the id to echo in
// the error reply (nil = null); dup is true when the frame is refused for
// a top-level member named twice.
func validateFrame(frame []byte) (p probe, id json.RawMessage, code int, msg string, dup bool) {
	first := frame[0]
	if first != '{' {
		// Not valid JSON: checkFrame answers -32700, or -32600 for a
		// well-formed value nested too deep.
		if first == '[' {
			return p, nil, CodeInvalidRequest, "invalid request: batches are not supported", false
		}
		return p, nil, CodeInvalidRequest, "invalid request: a message must be a JSON object", false
	}
	p, name, ok := topLevel(frame)
	if !ok {
		if !json.Valid(frame) {
			id, code, msg := invalidJSON(frame, nil)
			return p, id, code, msg, false
		}
		// Valid JSON the cheap scanner could not read (it cannot happen
		// for an object, but be safe): decode it properly.
		if err := json.Unmarshal(frame, &p); err != nil {
			return p, nil, CodeParseError, "parse error: " + err.Error(), false
		}
	}
	if name != "" {
		// Which of the two counts is the parser's choice (RFC 8259 §4): a
		// host and hookside could read different frames from these bytes.
		id := validID(p.ID)
		if name == "id" || p.Method == nil {
			id = nil // a reply's id is the server's own: the error goes out with null
		}
		return p, id, CodeInvalidRequest, dupMemberMsg + `"` + name + `" (each member name may appear once)`, true
	}
	if p.JSONRPC != nil && !bytes.Equal(p.JSONRPC, []byte(`"2.0"`)) {
		return p, validID(p.ID), CodeInvalidRequest, `invalid request: "jsonrpc" must be "2.0"`, false
	}
	if p.ID != nil && validID(p.ID) == nil {
		return p, nil, CodeInvalidRequest, "invalid request: id must be a string or a non-negative integer", false
	}
	if p.Method == nil {
		if p.Result == nil && p.Error == nil {
			return p, p.ID, CodeInvalidRequest, "invalid request: neither a request (method) nor a response (result/error)", false
		}
		if p.ID == nil {
			return p, nil, CodeInvalidRequest, "invalid request: a response needs an id", false
		}
		return p, nil, 0, "", false
	}
	if len(p.Method) == 0 || p.Method[0] != '"' {
		return p, p.ID, CodeInvalidRequest, "invalid request: method must be a string", false
	}
	return p, nil, 0, "", false
}

// validID returns raw when it is an id the library can carry faithfully
// (a string, or an integer 0..2^63-1), else nil.
func validID(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return nil
	}
	if raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return nil
		}
		// Invalid UTF-8 and lone surrogates decode to U+FFFD: the reply
		// could not carry the host's id back unchanged.
		if strings.ContainsRune(s, utf8.RuneError) && !(utf8.Valid(raw) && bytes.ContainsRune(raw, utf8.RuneError)) && !containsFFFDEscape(raw) {
			return nil
		}
		return raw
	}
	n, err := strconv.ParseUint(string(raw), 10, 64)
	if err != nil || n > math.MaxInt64 {
		return nil
	}
	return raw
}

// containsFFFDEscape reports whether raw spells U+FFFD as an escape.
func containsFFFDEscape(raw []byte) bool {
	return bytes.Contains(bytes.ToLower(raw), []byte(`\ufffd`))
}

// WriteObject implements jsonrpc2.ObjectStream. The library's messages
// marshal themselves; calling MarshalJSON directly spares encoding/json's
// extra compaction pass over the result.
func (s *objectStream) WriteObject(obj any) error {
	var b []byte
	var err error
	if m, ok := obj.(json.Marshaler); ok {
		b, err = m.MarshalJSON()
	} else {
		b, err = json.Marshal(obj)
	}
	if err != nil {
		return err
	}
	return s.f.WriteFrame(b)
}

// Close implements jsonrpc2.ObjectStream.
func (s *objectStream) Close() error {
	if s.closer != nil {
		return s.closer()
	}
	return nil
}

// writeResult writes a success response. Responses and notifications are
// written directly (one json.Marshal of the payload, or the result's own
// appendResult): the library's own path marshals results two more times
// and builds a map per notification, and it adds nothing here since the
// library does not track our replies.
// Server→client requests still go through the library (it matches the
// host's answers to them).
func (s *objectStream) writeResult(id jsonrpc2.ID, res any) error {
	idb, err := id.MarshalJSON()
	if err != nil {
		return err
	}
	// A resultAppender encodes itself in place, after the envelope's head.
	r, inPlace := res.(resultAppender)
	body, size := []byte("null"), 1024
	if !inPlace {
		if res != nil {
			if body, err = json.Marshal(res); err != nil {
				return err
			}
		}
		size = len(body)
	}
	frame := make([]byte, 0, size+len(idb)+36)
	frame = append(frame, `{"jsonrpc":"2.0","id":`...)
	frame = append(frame, idb...)
	frame = append(frame, `,"result":`...)
	if inPlace {
		if frame, err = r.appendResult(frame); err != nil {
			return err
		}
	} else {
		frame = append(frame, body...)
	}
	err = s.f.WriteFrame(append(frame, '}'))
	steps.Mark(steps.Replied)
	return err
}

// writeError writes an error response (with data, when e has some).
func (s *objectStream) writeError(id jsonrpc2.ID, e *Error) error {
	idb, err := id.MarshalJSON()
	if err != nil {
		return err
	}
	body, err := json.Marshal(e.wire())
	if err != nil {
		return err
	}
	frame := make([]byte, 0, len(body)+len(idb)+36)
	frame = append(frame, `{"jsonrpc":"2.0","id":`...)
	frame = append(frame, idb...)
	frame = append(frame, `,"error":`...)
	frame = append(frame, body...)
	frame = append(frame, '}')
	return s.f.WriteFrame(frame)
}

// writeNotification writes a server→client notification. method must be a
// plain ASCII name (all of ours are constants).
func (s *objectStream) writeNotification(method string, params any) error {
	frame, err := notificationFrame(method, params)
	if err != nil {
		return err
	}
	return s.f.WriteFrame(frame)
}

// holdNotification encodes a notification now and holds it: it goes out in
// the same write as the next frame of the connection (or at flush).
func (s *objectStream) holdNotification(method string, params any) error {
	frame, err := notificationFrame(method, params)
	if err != nil {
		return err
	}
	s.f.HoldFrame(frame)
	return nil
}

// flush writes the held notifications, if any.
func (s *objectStream) flush() {
	if err := s.f.Flush(); err != nil {
		s.log.Debug("flush held notifications", "err", err)
	}
}

func notificationFrame(method string, params any) ([]byte, error) {
	frame := make([]byte, 0, 512)
	frame = append(frame, `{"jsonrpc":"2.0","method":"`...)
	frame = append(frame, method...)
	frame = append(frame, `","params":`...)
	if a, ok := params.(jsonAppender); ok {
		frame = a.appendJSON(frame)
	} else {
		body, err := json.Marshal(params)
		if err != nil {
			return nil, err
		}
		frame = append(frame, body...)
	}
	return append(frame, '}'), nil
}
