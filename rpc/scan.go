package rpc

// topLevel returns the raw values of the top-level members "jsonrpc", "id",
// "method", "result" and "error" of a frame that starts with '{', without
// decoding or validating the rest (nested values are skipped by counting
// brackets outside strings). It is the cheap half of validateFrame: a
// frame that is not valid JSON is caught when the library decodes it. ok is
// false when the frame is too malformed to scan.
func topLevel(frame []byte) (p probe, ok bool) {
	i := skipWS(frame, 1)
	if i < len(frame) && frame[i] == '}' {
		return p, true
	}
	for i < len(frame) {
		if frame[i] != '"' {
			return p, false
		}
		kEnd := skipString(frame, i)
		if kEnd < 0 {
			return p, false
		}
		key := frame[i+1 : kEnd-1]
		i = skipWS(frame, kEnd)
		if i >= len(frame) || frame[i] != ':' {
			return p, false
		}
		i = skipWS(frame, i+1)
		vEnd := skipValue(frame, i)
		if vEnd < 0 {
			return p, false
		}
		val := frame[i:vEnd]
		switch string(key) {
		case "jsonrpc":
			p.JSONRPC = val
		case "id":
			p.ID = val
		case "method":
			p.Method = val
		case "result":
			p.Result = val
		case "error":
			p.Error = val
		case "params":
			p.Params = val
		}
		i = skipWS(frame, vEnd)
		if i >= len(frame) {
			return p, false
		}
		switch frame[i] {
		case ',':
			i = skipWS(frame, i+1)
		case '}':
			return p, true
		default:
			return p, false
		}
	}
	return p, false
}

func skipWS(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the index after the string starting at b[i] == '"',
// or -1.
func skipString(b []byte, i int) int {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return -1
}

// skipValue returns the index after the value starting at b[i], or -1.
func skipValue(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				e := skipString(b, j)
				if e < 0 {
					return -1
				}
				j = e - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return -1
	default:
		j := i
		for j < len(b) && b[j] != ',' && b[j] != '}' && b[j] != ']' && b[j] != ' ' && b[j] != '\t' && b[j] != '\n' && b[j] != '\r' {
			j++
		}
		if j == i {
			return -1
		}
		return j
	}
}
