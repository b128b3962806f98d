package jsonpos

import "bytes"

// bom is the UTF-8 byte order mark (U+FEFF), which Windows editors write
// at the start of a text file.
var bom = []byte{0xEF, 0xBB, 0xBF}

// SkipBOM returns data without a leading UTF-8 byte order mark, and base,
// the length of what was skipped (0 or 3): an offset in body is base more
// in data. JSON itself has no byte order mark (RFC 8259 §8.1: a parser
// may ignore one), and encoding/json refuses it ("invalid character
// 'ï'"), so the configuration loader (runner/config) and hooks run /
// hooks explain --input (cmd/hookside) skip it here first; positions
// reported in data (LineCol) do not count the mark.
func SkipBOM(data []byte) (body []byte, base int) {
	if bytes.HasPrefix(data, bom) {
		return data[len(bom):], len(bom)
	}
	return data, 0
}
