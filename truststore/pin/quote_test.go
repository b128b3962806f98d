package pin

import (
	"reflect"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// TestDecodeANSIC: $'…' bodies decode as bash decodes them; what bash
// decodes by locale or truncates is refused.
func TestDecodeANSIC(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		ok       bool
	}{
		{`plain`, "plain", true},
		{`\x64x`, "dx", true},
		{`\x6`, "\x06", true},
		{`\xg`, `\xg`, true},
		{`\144`, "d", true},
		{`\1441`, "d1", true},
		{`\u0064`, "d", true},
		{`\U00000064`, "d", true},
		{`\a\b\e\E\f\n\r\t\v`, "\a\b\x1b\x1b\f\n\r\t\v", true},
		{`\\\'\"\?`, `\'"?`, true},
		{`\cA\ca\c?`, "\x01\x01\x7f", true},
		{`\c`, `\c`, true},
		{`\q`, `\q`, true},
		{`a\`, `a\`, true},
		{`\0`, "", false},
		{`\x00`, "", false},
		{`\400`, "", false},
		{`\c@`, "", false},
		{`\u00e9`, "", false},
		{`\U0001F600`, "", false},
	} {
		got, ok := decodeANSIC(tc.in)
		if ok != tc.ok || ok && got != tc.want {
			t.Errorf("decodeANSIC(%q) = %q, %v; want %q, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

func TestLiteralSubsts(t *testing.T) {
	for in, want := range map[string][]string{
		"no substitution":             nil,
		"a[$(bash x.sh)]":             {"$(bash x.sh)"},
		"`a` and <(b) >(c) $(d $(e))": {"`a`", "$(b)", "$(c)", "$(d $(e))"},
		"(paren) $x":                  nil,
		"$(unclosed":                  {"$(unclosed"},
	} {
		if got := literalSubsts(in); !reflect.DeepEqual(got, want) {
			t.Errorf("literalSubsts(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestPinNestingBounded: text nested within text (each level scanned
// again as code) costs work polynomial in the levels, not exponential:
// the shapes below took minutes at 15 levels before reparse and codeText.
// The work is counted in allocations, not timed: doubling the levels from
// 100 to 200 may at most quadruple it (plus a margin; the literal and
// here_doc shapes are quadratic, the others linear), where exponential
// work would grow by 2^100.
func TestPinNestingBounded(t *testing.T) {
	root := t.TempDir()
	shapes := map[string]func(string) string{
		"echo_pipe":   func(s string) string { return `echo "$(` + s + `)" | sh` },
		"bash_c":      func(s string) string { return `bash -c "$(` + s + `)"` },
		"param":       func(s string) string { return `bash -c "${x:-$(` + s + `)}"` },
		"eval_var":    func(s string) string { return `x="$(` + s + `)"; eval "$x"` },
		"here_string": func(s string) string { return `bash <<< "$(` + s + `)"` },
		"here_doc":    func(s string) string { return "bash <<E\n$(" + s + ")\nE\n" },
		"literal":     func(s string) string { return `x='$(` + strings.ReplaceAll(s, "'", "") + `)'; (( x ))` },
		"braces":      func(s string) string { return `echo {a,b}{c,d}$(` + s + `)` },
	}
	nest := func(f func(string) string, levels int) string {
		s := "bash hooks/a.sh"
		for i := 0; i < levels; i++ {
			s = f(s)
		}
		return s
	}
	for name, f := range shapes {
		var work [2]float64
		for i, levels := range []int{100, 200} {
			s := nest(f, levels)
			if checkWindowsSyntax && windowsSyntax(cmdHook(s)) != nil {
				t.Logf("%s: not a Windows command line; skipped", name)
				break
			}
			work[i] = testing.AllocsPerRun(1, func() {
				if _, err := PinScripts(cmdHook(s), root); err != nil {
					t.Fatal(err)
				}
			})
		}
		if work[0] > 0 && work[1] > 4.5*work[0] {
			t.Errorf("%s: 200 levels cost %.0f allocations, 100 levels %.0f: more than quadratic growth", name, work[1], work[0])
		}
	}
}

// FuzzSplitShell: no line panics the flattener, and every statement of
// the syntax tree (outside here-document bodies, which are scanned again
// as text) is flattened: nothing in the tree hides a command.
func FuzzSplitShell(f *testing.F) {
	for _, s := range []string{
		"(( $(bash hooks/a.sh; echo 1) ))",
		"for (( i=$(a); i<$(b); i++ )); do x[$(c)]=1; done",
		`case $(a) in $(b)) [[ $(c) == @(d) ]];; esac; let "x=$(e)"`,
		`bash hooks/$'\x64'x.sh; eval 'bash hooks/e.sh'; trap "$X" EXIT`,
		"declare -a x=([$(a)]=$(b)); echo ${x:$(c):$(d)} ${y/$(e)/$(f)}",
		"cat <<E\n$(a)\nE\necho 'bash x.sh' | sh; bash <<< \"$(b)\"",
		"curl -s u | sh; bash <(cat a.sh) <(curl u); sh < <(x); . /dev/stdin < f; cat f g | bash -s",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 4096 {
			return
		}
		_ = splitShell(s)
		file, err := syntax.NewParser(syntax.Variant(syntax.LangBash), syntax.RecoverErrors(maxRecover)).Parse(strings.NewReader(s), "")
		if err != nil {
			return
		}
		fl := flattenFile(s, file, newReparse())
		eachStmt(file, func(n *syntax.Stmt) {
			if !fl.seen[n] {
				t.Fatalf("%q: statement at %s not flattened", s, n.Pos())
			}
		})
	})
}
