package output

import (
	"strings"
	"unicode/utf8"
)

// PreviewChars caps the stdoutPreview / stderrPreview of hook/completed and
// the output shown by `hooks run` and the failure warning (characters).
const PreviewChars = 2000

// Preview returns b as valid UTF-8, redacted (Redact) and cut to max
// characters, with "…" appended when it was cut
// (lifecycle-hooks-and-workspace-trust §"钩子输出怎样进模型上下文": stderr and
// stdout previews are redacted first). Only the head of the output is
// redacted: cutting first, with a margin so a secret straddling the cut is
// still recognised, keeps the cost independent of how much a hook printed.
func Preview(b []byte, max int) string {
	const margin = 512 // bytes: longer than any secret pattern's match
	if limit := max*utf8.UTFMax + margin; len(b) > limit {
		b = b[:limit] // more than max characters remain: cut below
	}
	s := Redact(strings.ToValidUTF8(string(b), "\uFFFD"))
	if cut := cutRunes(s, max); len(cut) < len(s) {
		return cut + "…"
	}
	return s
}
