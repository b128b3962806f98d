package jsonpos

import "reflect"

// Wording selects how KindName names booleans and integers.
type Wording uint8

const (
	// Plain names a boolean "a boolean" and every Go number type "a
	// number" (the JSON-RPC server's -32602 reasons).
	Plain Wording = iota
	// Exact names a boolean "true or false" and tells integers ("an
	// integer") from other numbers ("a number") (the V2 CLI's messages
	// about the files it reads).
	Exact
)

// KindName names the JSON value a value of Go type t decodes from, for
// messages of the form "must be a string": "a string", "an object" (a
// struct or a map), "an array" (a slice or an array), and booleans and
// numbers as w says. Pointers are followed. Any other type (an interface,
// a channel, a complex number…) is named by its reflect kind under Plain
// ("interface") and as "a " and its type under Exact ("a chan int").
func KindName(t reflect.Type, w Wording) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		if w == Exact {
			return "true or false"
		}
		return "a boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if w == Exact {
			return "an integer"
		}
		return "a number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Struct, reflect.Map:
		return "an object"
	case reflect.Slice, reflect.Array:
		return "an array"
	}
	if w == Exact {
		return "a " + t.String()
	}
	return t.Kind().String()
}

// ValueKindName names the kind of the JSON value raw (valid JSON, white
// space around it allowed) for messages of the form "must be an object,
// not a string": "an object", "an array", "a string", "a boolean", "a
// number" or "null" ("nothing" when raw is empty).
func ValueKindName(raw []byte) string {
	i := 0
	for i < len(raw) && (raw[i] == ' ' || raw[i] == '\t' || raw[i] == '\n' || raw[i] == '\r') {
		i++
	}
	if i == len(raw) {
		return "nothing"
	}
	switch raw[i] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}
