package jsonpos

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"
)

// Fault is where and why data is not one JSON text.
type Fault struct {
	// Off is the 0-based byte offset it is about: the offending byte as
	// SyntaxMessage reports it (a trailing comma at the comma); len(data)
	// when Truncated.
	Off int
	// Text is encoding/json's message with SyntaxHint's hint, as
	// SyntaxMessage words it.
	Text string
	// Truncated: data ends inside a value.
	Truncated bool
	// Trailing: a complete value is followed by other data (two objects
	// on one line, text after the value).
	Trailing bool
	// Deep: data nests past MaxDepth at Off, where encoding/json stops
	// reading (what follows is not looked at).
	Deep bool
}

// MaxDepth is encoding/json's nesting limit: arrays and objects nested
// more than MaxDepth levels deep are not read.
const MaxDepth = 10000

// SyntaxFault is the Fault se, a *json.SyntaxError from decoding data, is
// about.
func SyntaxFault(data []byte, se *json.SyntaxError) Fault {
	f := Fault{Truncated: Truncated(se), Trailing: strings.HasSuffix(se.Error(), "after top-level value"),
		Deep: strings.HasSuffix(se.Error(), "exceeded max depth")}
	if f.Deep {
		// encoding/json words it as a bad character; the character is fine.
		f.Off, f.Text = SyntaxErrorOffset(data, se), "it nests more than "+strconv.Itoa(MaxDepth)+" levels deep (the most hookside reads)"
		return f
	}
	f.Off, f.Text = SyntaxMessage(data, SyntaxErrorOffset(data, se), se.Error())
	return f
}

// Check is the Fault of data; bad is false when data is one JSON text.
func Check(data []byte) (f Fault, bad bool) {
	var se *json.SyntaxError
	if err := json.Unmarshal(data, new(json.RawMessage)); errors.As(err, &se) {
		return SyntaxFault(data, se), true
	}
	return Fault{}, false
}
