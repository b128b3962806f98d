package jsonpos

import "strings"

// Key returns the path of the member key of the object at path, in the
// form every path hookside prints takes (duplicate members, -32602
// data.field, PathOffset's argument): names joined by "." and array
// elements as "[i]" ("input.toolInput.command", "workspaces[1].id"; a
// member of the document is its name alone), except that a name which
// could be read as more than one name — empty, or holding ".", "[", "]",
// "'" or "\" — is written in brackets and single quotes, "\" and "'"
// escaped with a "\": {"a.b":1} is "['a.b']", {"a":{"b":1}} is "a.b",
// {"x":{"a.b":1}} is "x['a.b']". So a path names one place.
func Key(path, key string) string {
	switch {
	case needsBrackets(key):
		return path + quotedKey(key)
	case path == "":
		return key
	}
	return path + "." + key
}

func needsBrackets(key string) bool {
	return key == "" || strings.ContainsAny(key, `.[]'\`)
}

// quotedKey is key in brackets and single quotes: "['" + key + "']", with
// "\" and "'" escaped.
func quotedKey(key string) string {
	var sb strings.Builder
	sb.Grow(len(key) + 4)
	sb.WriteString("['")
	for i := 0; i < len(key); i++ {
		if c := key[i]; c == '\\' || c == '\'' {
			sb.WriteByte('\\')
		}
		sb.WriteByte(key[i])
	}
	sb.WriteString("']")
	return sb.String()
}

// quotedKeyAt parses a bracketed, single-quoted name at the start of path
// (quotedKey's form) and returns the name and the path after it; ok is
// false when path does not start with one.
func quotedKeyAt(path string) (key, rest string, ok bool) {
	if !strings.HasPrefix(path, "['") {
		return "", "", false
	}
	var sb strings.Builder
	for i := 2; i < len(path); i++ {
		switch c := path[i]; c {
		case '\\':
			if i+1 == len(path) {
				return "", "", false
			}
			i++
			sb.WriteByte(path[i])
		case '\'':
			if i+1 == len(path) || path[i+1] != ']' {
				return "", "", false
			}
			return sb.String(), path[i+2:], true
		default:
			sb.WriteByte(c)
		}
	}
	return "", "", false
}
