// Package jsjson encodes strings byte for byte as JavaScript's
// JSON.stringify does, for the digests and hashes that must match the
// original (JavaScript) implementation: the workspace-hook declaration
// digest (truststore) and the V2 execution hash (v2bridge/expr).
package jsjson

import "unicode/utf8"

const hexDigits = "0123456789abcdef"

// AppendString appends s as JSON.stringify encodes a string
// (ECMA-262 QuoteJSONString): `"` and `\` are backslash-escaped; U+0008,
// U+0009, U+000A, U+000C, U+000D become \b \t \n \f \r; every other code
// point below U+0020 becomes \u00xx with lowercase hex. Nothing else is
// escaped: not `<`, `>`, `&`, U+007F, U+2028, U+2029 or any non-ASCII
// character (emitted as raw UTF-8). JavaScript escapes lone surrogates as
// \udxxx; Go strings cannot hold them, but they can hold invalid UTF-8: each
// invalid byte is emitted as U+FFFD, the rule encoding/json applies when it
// decodes the configuration files.
func AppendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"':
				b = append(b, '\\', '"')
			case '\\':
				b = append(b, '\\', '\\')
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, "\uFFFD"...)
			i++
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
