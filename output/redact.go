package output

import (
	"regexp"
	"strings"
)

// secretPatterns are redacted from stdout/stderr previews before they leave
// the process (lifecycle-hooks-and-workspace-trust §"钩子输出怎样进模型上下文":
// previews are redacted first). The first group, when present, is kept.
// Each pattern runs only when one of its trigger substrings occurs in the
// lowercased text: most hook output holds none, and the regular
// expressions cost ~100 µs per kilobyte on this project's machines.
var secretPatterns = []secretPattern{
	{[]string{"bearer"}, regexp.MustCompile(`(?i)(bearer\s+)[A-Za-z0-9._~+/=-]{8,}`)},
	{[]string{"key", "secret", "token", "passw", "pwd", "authorization"},
		regexp.MustCompile(`(?i)((?:api[_-]?key|secret|token|password|passwd|pwd|authorization)["']?\s*[:=]\s*["']?)[^\s"',;]{4,}`)},
	{[]string{"sk-", "pk-", "rk-"}, regexp.MustCompile(`()\b(?:sk|pk|rk)-[A-Za-z0-9_-]{16,}`)},
	{[]string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_"}, regexp.MustCompile(`()\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}`)},
	{[]string{"github_pat_"}, regexp.MustCompile(`()\bgithub_pat_[A-Za-z0-9_]{20,}`)},
	{[]string{"akia"}, regexp.MustCompile(`()\bAKIA[0-9A-Z]{16}\b`)},
	{[]string{"xox"}, regexp.MustCompile(`()\bxox[abprs]-[A-Za-z0-9-]{10,}`)},
	{[]string{"private key"}, regexp.MustCompile(`()-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)`)},
}

type secretPattern struct {
	triggers []string
	re       *regexp.Regexp
}

// Redact replaces likely secrets in s with "[REDACTED]": bearer tokens,
// key=value pairs named like secrets, sk-/pk-/rk- keys, GitHub and Slack
// tokens, AWS key ids, private keys. Used for hook output previews and the
// output summaries of queued hooks.
func Redact(s string) string {
	lower := strings.ToLower(s)
	for _, p := range secretPatterns {
		for _, t := range p.triggers {
			if strings.Contains(lower, t) {
				s = p.re.ReplaceAllString(s, "${1}[REDACTED]")
				lower = strings.ToLower(s)
				break
			}
		}
	}
	return s
}
