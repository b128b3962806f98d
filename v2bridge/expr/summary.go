package expr

import (
	"regexp"
	"sync"
)

// Summary limits and markers of hooks-v2-handbook §11.3.
const (
	SummaryMaxStringLen = 512 // UTF-16 code units, as JavaScript counts
	SummaryMaxDepth     = 6
	SummaryMaxEntries   = 64
	RedactedValue       = "***"
	TruncatedSuffix     = "…[truncated]"
	DepthLimitValue     = "[depth-limit]"
	TruncatedKey        = "[truncated]"
)

// sensitiveKey matches the key names of §11.3 (case-insensitive, anywhere in
// the key): authorization, cookie, token, secret, password, passphrase,
// api key, credential, private key. "api key"/"private key" accept no
// separator or one of "-", "_", " " (apiKey, api_key, x-api-key, private-key).
var sensitiveKey = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)authorization|cookie|token|secret|password|passphrase|api[-_ ]?key|credential|private[-_ ]?key`)
})

// SensitiveKey reports whether an object key's value is redacted in
// summaries (hooks-v2-handbook §11.3).
func SensitiveKey(key string) bool { return sensitiveKey().MatchString(key) }

// Summarize returns the redacted, truncated copy of v stored as a run's
// input or output summary (hooks-v2-handbook §11.3):
//
//   - a value under a sensitive key (SensitiveKey) becomes "***", whatever its
//     type; the key is kept;
//   - a string longer than 512 UTF-16 code units is cut to 512 (never inside
//     a surrogate pair) and gets "…[truncated]" appended;
//   - a value nested deeper than 6 levels (the root is level 0) becomes
//     "[depth-limit]";
//   - an array keeps its first 64 elements; an object keeps its first 64 keys
//     and gains "[truncated]": true when it had more. An *Object (decoded
//     JSON: the payload, a host's tool output) keeps its property order
//     (JSON.stringify's) and the first 64 in that order; a Go map has no
//     order and is cut in sorted order.
//
// v is decoded JSON or anything encoding/json marshals; v is not modified.
func Summarize(v any) any { return summarize(v, 0) }

func summarize(v any, depth int) any {
	if depth > SummaryMaxDepth {
		return DepthLimitValue
	}
	switch x := v.(type) {
	case nil, bool, float64:
		return x
	case string:
		return truncateJS(x)
	case []any:
		n := min(len(x), SummaryMaxEntries)
		out := make([]any, n)
		for i := range n {
			out[i] = summarize(x[i], depth+1)
		}
		return out
	case *Object:
		out := &Object{vals: make(map[string]any, min(x.Len(), SummaryMaxEntries)+1)}
		for i, k := range x.Keys() {
			if i == SummaryMaxEntries {
				out.Set(TruncatedKey, true)
				break
			}
			if SensitiveKey(k) {
				out.Set(k, RedactedValue)
			} else {
				out.Set(k, summarize(x.vals[k], depth+1))
			}
		}
		return out
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sortJSKeys(keys)
		out := make(map[string]any, min(len(keys), SummaryMaxEntries)+1)
		for i, k := range keys {
			if i == SummaryMaxEntries {
				out[TruncatedKey] = true
				break
			}
			if SensitiveKey(k) {
				out[k] = RedactedValue
			} else {
				out[k] = summarize(x[k], depth+1)
			}
		}
		return out
	}
	if _, ok := toNumber(v); ok {
		return v
	}
	g, ok := toGeneric(v)
	if !ok {
		return nil
	}
	return summarize(g, depth)
}

// truncateJS cuts s to SummaryMaxStringLen UTF-16 code units plus the marker.
func truncateJS(s string) string {
	if len(s) <= SummaryMaxStringLen || jsLen(s) <= SummaryMaxStringLen {
		return s
	}
	units := 0
	for i, r := range s {
		w := utf16Width(r)
		if units+w > SummaryMaxStringLen {
			return s[:i] + TruncatedSuffix
		}
		units += w
	}
	return s
}
