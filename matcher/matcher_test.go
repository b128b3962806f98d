package matcher

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

func ptr(s string) *string { return &s }

func TestMatch(t *testing.T) {
	type probe struct {
		value string
		want  bool
	}
	tests := []struct {
		name    string
		pattern *string
		probes  []probe
	}{
		{"nil_matches_all", nil, []probe{{"Bash", true}, {"anything", true}}},
		{"star_matches_all", ptr("*"), []probe{{"Bash", true}, {"x", true}}},
		{"empty_pattern_matches_all", ptr(""), []probe{{"Bash", true}}},
		{"exact_name", ptr("Bash"), []probe{{"Bash", true}, {"Bash2", false}, {"xBash", false}}},
		{"exact_list_is_case_sensitive", ptr("Bash|Write"), []probe{{"Bash", true}, {"Write", true}, {"bash", false}, {"WRITE", false}}},
		{"exact_list_ignores_empty_parts", ptr("|Bash||Edit|"), []probe{{"Bash", true}, {"Edit", true}, {"Read", false}}},
		{"exact_list_of_only_bars_matches_nothing", ptr("||"), []probe{{"Bash", false}}},
		{"exact_list_is_not_substring", ptr("Edit"), []probe{{"MultiEdit", false}}},
		{"underscore_and_digits_are_names", ptr("mcp__fs_read2"), []probe{{"mcp__fs_read2", true}, {"mcp__fs_read", false}}},
		{"regex_is_unanchored", ptr("Ed.t"), []probe{{"Edit", true}, {"MultiEdit", true}, {"Read", false}}},
		{"regex_anchors", ptr("^(Bash|Write|Edit)$"), []probe{{"Bash", true}, {"Edit", true}, {"MultiEdit", false}}},
		{"regex_is_case_sensitive", ptr("^bash$"), []probe{{"Bash", false}, {"bash", true}}},
		{"regex_prefix", ptr("mcp__.*"), []probe{{"mcp__github__get", true}, {"Bash", false}}},
		{"lookahead_uses_ecmascript", ptr("^(?!Bash$).*"), []probe{{"Bash", false}, {"Read", true}}},
		{"lookbehind_uses_ecmascript", ptr("(?<=mcp__)git"), []probe{{"mcp__github", true}, {"github", false}}},
		{"backreference_uses_ecmascript", ptr(`^(a)\1$`), []probe{{"aa", true}, {"a", false}}},
		{"named_group_and_reference", ptr(`^(?<x>[a-z])\k<x>$`), []probe{{"bb", true}, {"bc", false}}},
		{"numbered_reference_after_named_group", ptr(`^(?<x>a)(b)\2$`), []probe{{"abb", true}, {"aba", false}}},
		{"invalid_regex_matches_nothing", ptr("Bash("), []probe{{"Bash", false}, {"Bash(", false}}},
		{"empty_value_matches_all", ptr("^Bash$"), []probe{{"", true}}},
		{"empty_value_matches_invalid_matcher", ptr("(("), []probe{{"", true}}},
		{"empty_value_matches_name_list", ptr("Bash"), []probe{{"", true}}},
		{"Agent_alias_Task", ptr("Task"), []probe{{"Agent", true}, {"Task", true}}},
		{"Task_alias_Agent", ptr("Agent"), []probe{{"Task", true}}},
		{"alias_applies_to_regex", ptr("^Task$"), []probe{{"Agent", true}}},
		{"ApplyPatch_matched_by_Write", ptr("Write"), []probe{{"ApplyPatch", true}}},
		{"ApplyPatch_matched_by_Edit", ptr("^Edit$"), []probe{{"ApplyPatch", true}}},
		{"Write_not_matched_by_ApplyPatch", ptr("ApplyPatch"), []probe{{"Write", false}, {"Edit", false}, {"ApplyPatch", true}}},
		{"Edit_not_alias_of_Write", ptr("Write"), []probe{{"Edit", false}}},
		// JavaScript meaning wins over the engines' own dialects.
		{"js_dot_excludes_carriage_return", ptr("^a.b$"), []probe{{"a\rb", false}, {"a\u2028b", false}, {"axb", true}}},
		{"js_space_is_unicode", ptr(`^\s$`), []probe{{"\u00a0", true}, {"\v", true}, {"\ufeff", true}, {"x", false}}},
		{"js_not_space", ptr(`^\S$`), []probe{{"\u00a0", false}, {"x", true}}},
		{"js_word_is_ascii", ptr(`^\w$`), []probe{{"é", false}, {"_", true}}},
		{"js_identity_escape_A_is_letter", ptr(`\Abc`), []probe{{"Abc", true}, {"bc", false}}},
		{"js_identity_escape_z_is_letter", ptr(`ab\z`), []probe{{"abz", true}, {"ab", false}}},
		{"js_p_without_u_flag_is_letter", ptr(`^\p{L}$`), []probe{{"p{L}", true}, {"x", false}}},
		{"js_posix_class_is_not_special", ptr(`^[[:alpha:]]$`), []probe{{"a]", true}, {"b", false}}},
		{"js_empty_class_matches_nothing", ptr(`a[]`), []probe{{"a", false}, {"a]", false}}},
		{"js_negated_empty_class_matches_any", ptr(`^a[^]$`), []probe{{"a\n", true}, {"a", false}}},
		{"js_class_escape_in_range_is_literal_dash", ptr(`^[\d-z]$`), []probe{{"-", true}, {"5", true}, {"z", true}, {"m", false}}},
		{"js_class_backspace", ptr(`^[\b]$`), []probe{{"\b", true}, {"b", false}}},
		{"js_class_not_space", ptr(`^[a\S]$`), []probe{{"a", true}, {"b", true}, {" ", false}}},
		{"js_lone_brace_is_literal", ptr(`^a{$`), []probe{{"a{", true}}},
		{"js_brace_quantifier", ptr(`^a{2,3}$`), []probe{{"aa", true}, {"aaaa", false}}},
		{"js_large_count_uses_ecmascript", ptr(`^a{0,2000}$`), []probe{{"aaa", true}}},
		{"js_octal_escape", ptr(`^\101$`), []probe{{"A", true}}},
		{"js_backref_beyond_groups_is_octal", ptr(`^(a)\2$`), []probe{{"a\x02", true}}},
		{"js_eight_is_identity", ptr(`^\8$`), []probe{{"8", true}}},
		{"js_hex_and_unicode_escapes", ptr(`^\x41\u0042$`), []probe{{"AB", true}}},
		{"js_short_hex_is_letter", ptr(`^\xZ$`), []probe{{"xZ", true}}},
		{"js_control_escape", ptr(`^\cJ$`), []probe{{"\n", true}}},
		{"js_bad_control_is_backslash", ptr(`^\c1$`), []probe{{`\c1`, true}}},
		{"js_k_without_named_groups_is_letter", ptr(`^\k$`), []probe{{"k", true}}},
		{"js_surrogate_pair_escape", ptr(`^\uD83D\uDE00$`), []probe{{"😀", true}}},
		{"js_lone_surrogate_matches_nothing", ptr(`\uD83D`), []probe{{"😀", false}, {"\uFFFD", false}}},
		{"js_quantified_lookahead", ptr(`^(?=a)*a$`), []probe{{"a", true}}},
		{"js_lazy_quantifier", ptr(`^a+?b$`), []probe{{"aab", true}}},
		{"js_dollar_is_end_of_input", ptr(`a$`), []probe{{"a\n", false}, {"ba", true}}},
		{"js_negated_class_holds_bracket_and_caret", ptr(`^[^a]$`), []probe{{"[", true}, {"^", true}, {"a", false}}},
		{"js_range_from_dash", ptr(`^[--C]$`), []probe{{"0", true}, {"-", true}, {"C", true}, {"D", false}}},
		{"js_range_to_dash", ptr(`^[!--]$`), []probe{{",", true}, {"!", true}, {".", false}}},
		{"js_escaped_dash_range", ptr(`^[\--\-]$`), []probe{{"-", true}, {",", false}}},
		{"js_range_from_dash_in_lookahead", ptr(`^(?=[--C])\d$`), []probe{{"0", true}, {"a", false}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, _ := Compile(tt.pattern)
			for _, p := range tt.probes {
				if got := m.Match(p.value); got != p.want {
					t.Errorf("Compile(%v).Match(%q) = %v, want %v (engine %d)", deref(tt.pattern), p.value, got, p.want, m.kind)
				}
			}
		})
	}
}

func deref(p *string) string {
	if p == nil {
		return "<nil>"
	}
	return fmt.Sprintf("%q", *p)
}

func TestCompile(t *testing.T) {
	tests := []struct {
		name    string
		pattern string
		kind    kind
		invalid bool
	}{
		{"star_is_match_all", "*", kindAll, false},
		{"names_are_exact_list", "Bash|Edit", kindNames, false},
		{"plain_regex_uses_stdlib", "^(Bash|Edit)$", kindRE2, false},
		{"dot_star_uses_stdlib", "mcp__.*__read", kindRE2, false},
		{"digit_class_uses_stdlib", `^[\d_]+$`, kindRE2, false},
		{"space_uses_stdlib", `a\sb`, kindRE2, false},
		{"lookahead_uses_ecmascript", "(?=a)", kindBacktr, false},
		{"negative_lookahead_uses_ecmascript", "(?!a)", kindBacktr, false},
		{"lookbehind_uses_ecmascript", "(?<=a)b", kindBacktr, false},
		{"negative_lookbehind_uses_ecmascript", "(?<!a)b", kindBacktr, false},
		{"backref_uses_ecmascript", `(a)\1`, kindBacktr, false},
		{"named_group_uses_ecmascript", `(?<n>a)`, kindBacktr, false},
		{"not_space_in_class_uses_ecmascript", `[\S]`, kindBacktr, false},
		{"unclosed_group_is_invalid", "(a", kindNothing, true},
		{"unmatched_paren_is_invalid", "a)", kindNothing, true},
		{"unclosed_class_is_invalid", "[a", kindNothing, true},
		{"leading_star_is_invalid", "*a", kindNothing, true},
		{"nested_quantifier_is_invalid", "a**", kindNothing, true},
		{"quantified_anchor_is_invalid", "^*", kindNothing, true},
		{"quantified_lookbehind_is_invalid", "(?<=a)*", kindNothing, true},
		{"leading_braced_quantifier_is_invalid", "{2}", kindNothing, true},
		{"double_braced_quantifier_is_invalid", "a{2}{3}", kindNothing, true},
		{"braces_out_of_order_are_invalid", "a{3,2}", kindNothing, true},
		{"range_out_of_order_is_invalid", "[z-a]", kindNothing, true},
		{"trailing_backslash_is_invalid", `a\`, kindNothing, true},
		{"inline_flags_are_not_javascript", "(?i)bash", kindNothing, true},
		{"python_named_group_is_not_javascript", "(?P<n>a)", kindNothing, true},
		{"atomic_group_is_not_javascript", "(?>a)", kindNothing, true},
		{"duplicate_group_name_is_invalid", "(?<a>x)(?<a>y)", kindNothing, true},
		{"unknown_named_reference_is_invalid", `(?<a>x)\k<b>`, kindNothing, true},
		{"bare_k_with_named_groups_is_invalid", `(?<a>x)\k`, kindNothing, true},
		{"bar_and_star_list_is_regex_and_invalid", "Bash|*", kindNothing, true},
		{"invalid_utf8_is_invalid", "a\xffb(", kindNothing, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Compile(ptr(tt.pattern))
			if m == nil {
				t.Fatal("Compile returned a nil Matcher")
			}
			if (err != nil) != tt.invalid {
				t.Fatalf("Compile(%q) error = %v, want invalid=%v", tt.pattern, err, tt.invalid)
			}
			if err != nil && !errors.Is(err, errSyntax) {
				t.Errorf("error %v does not wrap errSyntax", err)
			}
			if m.kind != tt.kind {
				t.Errorf("Compile(%q) kind = %d, want %d", tt.pattern, m.kind, tt.kind)
			}
		})
	}
}

func TestCompileCache(t *testing.T) {
	t.Run("same_pattern_same_matcher", func(t *testing.T) {
		a, _ := Compile(ptr("^cache-test$"))
		b, _ := Compile(ptr("^cache-test$"))
		if a != b {
			t.Error("second Compile did not hit the cache")
		}
	})
	t.Run("cache_stays_bounded", func(t *testing.T) {
		for i := 0; i < 3*cacheSize; i++ {
			Compile(ptr(fmt.Sprintf("^bounded-%d$", i)))
		}
		n := 0
		cache.Range(func(any, any) bool { n++; return true })
		if n > cacheSize {
			t.Errorf("cache holds %d entries, limit %d", n, cacheSize)
		}
	})
	t.Run("cache_holds_exactly_the_limit", func(t *testing.T) {
		// 1024 entries (the literal, not the constant under test) fit;
		// the 1025th starts a new cache.
		cacheMu.Lock()
		cache.Clear()
		cacheLen.Store(0)
		cacheMu.Unlock()
		first, _ := Compile(ptr("^exact-0$"))
		for i := 1; i < 1024; i++ {
			Compile(ptr(fmt.Sprintf("^exact-%d$", i)))
		}
		if again, _ := Compile(ptr("^exact-0$")); again != first || cacheLen.Load() != 1024 {
			t.Fatalf("with 1024 patterns: first evicted=%v, %d cached", again != first, cacheLen.Load())
		}
		Compile(ptr("^exact-1024$"))
		if again, _ := Compile(ptr("^exact-0$")); again == first || cacheLen.Load() != 2 {
			t.Fatalf("the 1025th pattern did not start a new cache: %d cached", cacheLen.Load())
		}
	})
	t.Run("invalid_pattern_error_is_cached", func(t *testing.T) {
		_, err1 := Compile(ptr("(cached"))
		_, err2 := Compile(ptr("(cached"))
		if err1 == nil || err2 == nil {
			t.Errorf("errors = %v, %v; want both non-nil", err1, err2)
		}
	})
}

func TestAliases(t *testing.T) {
	tests := []struct {
		name, tool string
		want       []string
	}{
		{"Agent_alias_Task", "Agent", []string{"Task"}},
		{"Task_alias_Agent", "Task", []string{"Agent"}},
		{"ApplyPatch_aliases_Write_Edit", "ApplyPatch", []string{"Write", "Edit"}},
		{"other_tools_have_none", "Bash", nil},
		{"aliases_are_case_sensitive", "agent", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Aliases(tt.tool)
			if !slices.Equal(got, tt.want) {
				t.Errorf("Aliases(%q) = %v, want %v", tt.tool, got, tt.want)
			}
		})
	}
	t.Run("result_is_a_copy", func(t *testing.T) {
		Aliases("Agent")[0] = "X"
		if Aliases("Agent")[0] != "Task" {
			t.Error("Aliases returned shared storage")
		}
	})
}

func TestMatchDoesNotAllocate(t *testing.T) {
	m, _ := Compile(ptr("Bash|Write|Edit"))
	if n := testing.AllocsPerRun(100, func() { m.Match("ApplyPatch"); m.Match("Read") }); n != 0 {
		t.Errorf("exact-name Match allocates %v times", n)
	}
}

func TestNilMatcherMatchesAll(t *testing.T) {
	var m *Matcher
	if !m.Match("Bash") || m.String() != "*" {
		t.Error("nil *Matcher should match everything")
	}
}

// TestEnginesAgree checks, for patterns RE2 can run, that the regexp2
// spelling means the same thing (the translation is the contract).
func TestEnginesAgree(t *testing.T) {
	patterns := []string{`^a.b$`, `\s+`, `[^\s]`, `[\w.-]+`, `^\d{2,4}$`, `a|b|`, `[]`, `[^]`, `\x41\u00e9`, `[\u00e0-\u00ff]`, `\101`, `[\0-\x1f]`, `\/\-\]\}`, `{,2}`, `}]`}
	values := []string{"", "a", "ab", "a\rb", "a\nb", "axb", " \u00a0", "12", "1234", "é", "A\u00e9", "\x05", "/-]}", "{,2}", "}]", "x.y-z"}
	for _, p := range patterns {
		tr, err := translateJS(p)
		if err != nil || tr.needBacktrack {
			t.Errorf("translateJS(%q) = %+v, %v; want an RE2 translation", p, tr, err)
			continue
		}
		checkAgree(t, p, tr, values)
	}
}

func checkAgree(t *testing.T, p string, tr translation, values []string) {
	t.Helper()
	re, err := regexpCompile(tr.re2)
	if err != nil {
		return // RE2 size limits: Compile falls back to regexp2
	}
	bt, err := regexp2Compile(tr.ecma)
	if err != nil {
		t.Fatalf("pattern %q: RE2 spelling %q compiles but regexp2 spelling %q does not: %v", p, tr.re2, tr.ecma, err)
	}
	for _, v := range values {
		a := re.MatchString(v)
		b, err := bt.MatchString(v)
		if err != nil {
			continue
		}
		if a != b {
			t.Errorf("pattern %q on %q: RE2 (%s) = %v, regexp2 (%s) = %v", p, v, tr.re2, a, tr.ecma, b)
		}
	}
}

func TestTranslationEscapesEveryPunctuation(t *testing.T) {
	var sb strings.Builder
	for c := byte('!'); c < 0x7f; c++ {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			sb.WriteString(`\`)
			sb.WriteByte(c)
		}
	}
	p := sb.String()
	m, err := Compile(&p)
	if err != nil {
		t.Fatal(err)
	}
	if !m.Match("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~") {
		t.Errorf("escaped punctuation %q does not match itself", p)
	}
}

// TestNameListBounds: a pattern of letters, digits, "_" and "|" only is a
// list of exact names (lifecycle-hooks-and-workspace-trust §"配置格式与默认值":
// 只由字母、数字、下划线和竖线组成时，按竖线拆成名单逐个精确比较),
// including the first and last letter and digit; anything else is an
// unanchored regular expression.
func TestNameListBounds(t *testing.T) {
	m, err := Compile(ptr("az|AZ|09|_"))
	if err != nil {
		t.Fatal(err)
	}
	for v, want := range map[string]bool{"az": true, "AZ": true, "09": true, "_": true, "xaz": false, "AZx": false, "1090": false} {
		if got := m.Match(v); got != want {
			t.Errorf("Match(%q) = %v, want %v", v, got, want)
		}
	}
	if m, _ := Compile(ptr("a.z")); !m.Match("xa-zx") {
		t.Error(`"a.z" is a regular expression, unanchored`)
	}
}

// TestMatchAllString: every spelling of match-all prints as "*", any other
// pattern as written.
func TestMatchAllString(t *testing.T) {
	for _, p := range []*string{nil, ptr(""), ptr("*")} {
		if m, _ := Compile(p); m.String() != "*" {
			t.Errorf("Compile(%v).String() = %q, want *", p, m.String())
		}
	}
	for _, p := range []string{"Bash", "^Ba.h$"} {
		if m, _ := Compile(&p); m.String() != p {
			t.Errorf("Compile(%q).String() = %q, want the pattern as written", p, m.String())
		}
	}
}
