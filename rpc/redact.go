package rpc

import (
	"fmt"
	"regexp"
)

// secretPatterns are redacted from stdout/stderr previews before they leave
// the process (lifecycle-hooks-and-workspace-trust §"钩子输出怎样进模型上下文":
// previews are redacted first). The first group, when present, is kept.
var secretPatterns = []*regexp.Regexp{
	regexp.MustCompile(`(?i)(bearer\s+)[A-Za-z0-9._~+/=-]{8,}`),
	regexp.MustCompile(`(?i)((?:api[_-]?key|secret|token|password|passwd|pwd|authorization)["']?\s*[:=]\s*["']?)[^\s"',;]{4,}`),
	regexp.MustCompile(`()\b(?:sk|pk|rk)-[A-Za-z0-9_-]{16,}`),
	regexp.MustCompile(`()\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}`),
	regexp.MustCompile(`()\bgithub_pat_[A-Za-z0-9_]{20,}`),
	regexp.MustCompile(`()\bAKIA[0-9A-Z]{16}\b`),
	regexp.MustCompile(`()\bxox[abprs]-[A-Za-z0-9-]{10,}`),
	regexp.MustCompile(`()-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)`),
}

// redact replaces likely secrets in s with "[REDACTED]".
func redact(s string) string {
	for _, re := range secretPatterns {
		s = re.ReplaceAllString(s, "${1}[REDACTED]")
	}
	return s
}

func sprintf(format string, v ...any) string { return fmt.Sprintf(format, v...) }
