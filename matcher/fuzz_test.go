package matcher

import (
	"regexp"
	"testing"

	"github.com/dlclark/regexp2"
)

func regexpCompile(s string) (*regexp.Regexp, error) { return regexp.Compile(s) }

func regexp2Compile(s string) (*regexp2.Regexp, error) {
	re, err := regexp2.Compile(s, regexp2.ECMAScript)
	if err == nil {
		re.MatchTimeout = MatchTimeout
	}
	return re, err
}

// FuzzCompile checks that Compile and Match never panic, that an invalid
// pattern matches no non-empty value, and that when a pattern runs on RE2
// its regexp2 spelling agrees on the probe value.
func FuzzCompile(f *testing.F) {
	for _, s := range []string{"*", "Bash|Edit", "^(Bash|Write)$", "(?!a)", `(a)\1`, `[\d-z]`, `\uD83D\uDE00`, "a{2,}", `(?<n>x)\k<n>`, "[]", "[^]", `\cJ`, "(?i)x", `(?=.)\B`, `\w+\b`} {
		f.Add(s, "Bash")
	}
	f.Fuzz(func(t *testing.T, pattern, value string) {
		m, err := Compile(&pattern)
		if m == nil {
			t.Fatal("nil Matcher")
		}
		got := m.Match(value)
		if err != nil && value != "" && got {
			t.Fatalf("invalid pattern %q matched %q", pattern, value)
		}
		Aliases(value)
		tr, err := translateJS(pattern)
		if err == nil && !tr.needBacktrack {
			checkAgree(t, pattern, tr, []string{value})
		}
	})
}

func BenchmarkMatch(b *testing.B) {
	for _, bc := range []struct{ name, pattern, value string }{
		{"exact", "Bash|Write|Edit", "Edit"},
		{"exact_alias", "Bash|Write|Edit", "ApplyPatch"},
		{"regex_re2", "^(Bash|Write|Edit)$", "Edit"},
		{"regex_ecmascript", "^(?!Bash$)(Write|Edit)$", "Edit"},
	} {
		m, err := Compile(&bc.pattern)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				m.Match(bc.value)
			}
		})
	}
}

func BenchmarkCompileCached(b *testing.B) {
	p := "^(Bash|Write|Edit)$"
	b.ReportAllocs()
	for b.Loop() {
		Compile(&p)
	}
}
