package output

import (
	"regexp"
	"strings"
	"sync"
)

// secretPatterns are redacted from stdout/stderr previews before they leave
// the process (lifecycle-hooks-and-workspace-trust §"钩子输出怎样进模型上下文":
// previews are redacted first). The first group, when present, is kept.
// Each pattern runs only when one of its trigger substrings occurs in the
// lowercased text: most hook output holds none, and the regular
// expressions cost ~100 µs per kilobyte on this project's machines.
var secretPatterns = []secretPattern{
	{[]string{"bearer"}, lazyRegexp(`(?i)(bearer\s+)[A-Za-z0-9._~+/=-]{8,}`)},
	{[]string{"key", "secret", "token", "passw", "pwd", "authorization"},
		lazyRegexp(`(?i)((?:api[_-]?key|secret|token|password|passwd|pwd|authorization)["']?\s*[:=]\s*["']?)[^\s"',;]{4,}`)},
	{[]string{"sk-", "pk-", "rk-"}, lazyRegexp(`()\b(?:sk|pk|rk)-[A-Za-z0-9_-]{16,}`)},
	{[]string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_"}, lazyRegexp(`()\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}`)},
	{[]string{"github_pat_"}, lazyRegexp(`()\bgithub_pat_[A-Za-z0-9_]{20,}`)},
	{[]string{"akia"}, lazyRegexp(`()\bAKIA[0-9A-Z]{16}\b`)},
	{[]string{"xox"}, lazyRegexp(`()\bxox[abprs]-[A-Za-z0-9-]{10,}`)},
	{[]string{"private key"}, lazyRegexp(`()-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)`)},
}

type secretPattern struct {
	triggers []string
	re       func() *regexp.Regexp
}

// lazyRegexp compiles expr on first use: a process that never redacts
// (most CLI calls) does not pay for compiling the patterns at start-up.
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
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
				s = p.re().ReplaceAllString(s, "${1}[REDACTED]")
				lower = strings.ToLower(s)
				break
			}
		}
	}
	return s
}
