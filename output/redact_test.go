package output

import (
	"strings"
	"testing"
)

// redactCases cover each secret pattern of Redact: a secret it must hide
// (the text before it kept) and a near miss it must leave alone.
var redactCases = []struct {
	name, in, want string
}{
	// bearer tokens
	{"bearer_token", "Authorization Bearer abcdefgh12345", "Authorization Bearer [REDACTED]"},
	{"bearer_case_insensitive", "bearer ABCDEFGH.ijk", "bearer [REDACTED]"},
	{"bearer_short_kept", "Bearer abc", "Bearer abc"},
	// key=value pairs named like secrets
	{"api_key_equals", "api_key=hunter22", "api_key=[REDACTED]"},
	{"apikey_colon_quoted", `"apiKey": "s3cr3tvalue"`, `"apiKey": "[REDACTED]"`},
	{"api_dash_key", "API-KEY: abcd1234", "API-KEY: [REDACTED]"},
	{"password_pair", "password=correcthorse;", "password=[REDACTED];"},
	{"passwd_pair", "passwd: xyzzy99", "passwd: [REDACTED]"},
	{"pwd_pair", "pwd=abcd", "pwd=[REDACTED]"},
	{"secret_pair", "client secret = 'topsecretvalue'", "client secret = '[REDACTED]'"},
	{"token_pair", "TOKEN=abcdef", "TOKEN=[REDACTED]"},
	{"authorization_pair", "authorization: Basic", "authorization: [REDACTED]"},
	{"pair_value_too_short_kept", "token=abc", "token=abc"},
	{"word_without_value_kept", "the token expired", "the token expired"},
	// sk-/pk-/rk- keys
	{"sk_key", "key sk-abcdefghijklmnop1234 used", "key [REDACTED] used"},
	{"pk_key", "pk-ABCDEFGHIJKLMNOP", "[REDACTED]"},
	{"rk_key", "(rk-abcdefgh_ijklmnop)", "([REDACTED])"},
	{"sk_key_too_short_kept", "sk-abcdefghijklmno", "sk-abcdefghijklmno"},
	{"sk_inside_word_kept", "task-abcdefghijklmnopqrst", "task-abcdefghijklmnopqrst"},
	// GitHub tokens
	{"ghp_token", "ghp_abcdefghijklmnopqrstuvwxyz0123456789", "[REDACTED]"},
	{"gho_ghu_ghs_ghr_tokens", "gho_aaaaaaaaaaaaaaaaaaaa ghu_bbbbbbbbbbbbbbbbbbbb ghs_cccccccccccccccccccc ghr_dddddddddddddddddddd", "[REDACTED] [REDACTED] [REDACTED] [REDACTED]"},
	{"ghp_too_short_kept", "ghp_abcdefghijklmnopqrs", "ghp_abcdefghijklmnopqrs"},
	{"github_pat", "github_pat_11ABCDEFG0123456789_abcdefghij", "[REDACTED]"},
	{"github_pat_too_short_kept", "github_pat_abc", "github_pat_abc"},
	// AWS access key ids
	{"aws_key_id", "id AKIAIOSFODNN7EXAMPLE end", "id [REDACTED] end"},
	{"aws_key_id_too_long_kept", "AKIAIOSFODNN7EXAMPLEX", "AKIAIOSFODNN7EXAMPLEX"},
	{"aws_key_id_lowercase_kept", "akiaiosfodnn7example", "akiaiosfodnn7example"},
	// Slack tokens
	{"slack_bot_token", "xoxb-1234567890-abcdef", "[REDACTED]"},
	{"slack_user_token", "xoxp-abcdefghij", "[REDACTED]"},
	{"slack_unknown_kind_kept", "xoxz-1234567890-abcdef", "xoxz-1234567890-abcdef"},
	// private keys
	{"private_key_block", "a\n-----BEGIN RSA PRIVATE KEY-----\nMIIEow\nxyz\n-----END RSA PRIVATE KEY-----\nb", "a\n[REDACTED]\nb"},
	{"private_key_unterminated", "x -----BEGIN PRIVATE KEY-----\nMIIE", "x [REDACTED]"},
	{"public_key_kept", "-----BEGIN PUBLIC KEY-----\nMIIB\n-----END PUBLIC KEY-----", "-----BEGIN PUBLIC KEY-----\nMIIB\n-----END PUBLIC KEY-----"},
	// plain text
	{"no_secret_unchanged", "all 12 tests passed", "all 12 tests passed"},
	{"empty", "", ""},
}

func TestRedact(t *testing.T) {
	for _, tt := range redactCases {
		t.Run(tt.name, func(t *testing.T) {
			if got := Redact(tt.in); got != tt.want {
				t.Errorf("Redact(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestRedactSeveralPatternsInOneText(t *testing.T) {
	in := "Bearer abcdefgh12345\npassword=hunter22\nAKIAIOSFODNN7EXAMPLE"
	got := Redact(in)
	if strings.Contains(got, "abcdefgh12345") || strings.Contains(got, "hunter22") || strings.Contains(got, "AKIA") {
		t.Errorf("Redact(%q) = %q: a secret survived", in, got)
	}
	if n := strings.Count(got, "[REDACTED]"); n != 3 {
		t.Errorf("%d redactions, want 3: %q", n, got)
	}
}

// TestRedactEveryPatternIsNeeded removes each secret pattern in turn: some
// case of redactCases must then fail, so no pattern goes untested.
func TestRedactEveryPatternIsNeeded(t *testing.T) {
	if n := len(secretPatterns); n != 8 {
		t.Fatalf("%d secret patterns, want 8 (bearer, key=value, sk/pk/rk, GitHub, github_pat, AWS, Slack, private key)", n)
	}
	all := secretPatterns
	defer func() { secretPatterns = all }()
	for i := range all {
		secretPatterns = append(append([]secretPattern(nil), all[:i]...), all[i+1:]...)
		caught := false
		for _, tt := range redactCases {
			if Redact(tt.in) != tt.want {
				caught = true
				break
			}
		}
		if !caught {
			t.Errorf("removing secret pattern %d (%s) fails no case", i, all[i].re())
		}
	}
}
