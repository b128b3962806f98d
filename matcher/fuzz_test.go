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
		re.MatchTimeout = matchTimeout
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

// FuzzRule checks that ParseRule and Rule.Match never panic, that a parsed
// rule's String parses back to the same rule, and that a Bash command that
// is one plain word matches a rule naming exactly that word.
func FuzzRule(f *testing.F) {
	for _, s := range [][2]string{{"Bash(git *)", "FOO=bar git push"}, {"Bash(rm *)", "echo $(rm -rf /)"}, {"Edit(src/**)", "src/a.go"}, {"Read(./.env)", ".env"}, {"Bash(a) && Bash(b)", "a"}, {"Bash(x:*)", "`x`"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, rule, arg string) {
		r, err := ParseRule(rule)
		if err != nil {
			return
		}
		r2, err := ParseRule(r.String())
		if err != nil || r2.Tool != r.Tool || r2.String() != r.String() {
			t.Fatalf("ParseRule(%q).String() = %q reparses as %+v, %v", rule, r.String(), r2, err)
		}
		for _, tool := range []string{r.Tool, "Bash", "Edit", "WebFetch", "Agent"} {
			r.Match(ToolCall{ToolName: tool, Input: map[string]any{"command": arg, "file_path": arg, "url": arg, "subagent_type": arg}, Cwd: "/w", ProjectDir: "/w", Home: "/h"})
		}
	})
}
