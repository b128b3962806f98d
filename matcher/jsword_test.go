package matcher

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// JavaScript's word characters are exactly [A-Za-z0-9_] without the u and
// i flags (ECMAScript WordCharacters), and the same with the u flag alone:
// \w, \W, \b and \B never treat é, Ǎ, ß, K (U+212A) or ſ (U+017F) as word
// characters. The expectations below were produced by Node.js (V8);
// TestWordTableAgainstNode regenerates them when node is installed.

var wordInputs = []string{"", "a", "é", "aé", "éa", "Ǎ", "_", "9", "٣", "ß", "\u212A", "\u017F", " ", "a b", "-", "x-y", "\uFF41", "\u0130"}

// wordTable: pattern, then one '1' (matches) or '0' per wordInputs entry,
// as RegExp(pattern).test(input) answers.
var wordTable = []struct{ pattern, want string }{
	{`\b`, "010110110000010100"},
	{`\B`, "101111001111101011"},
	{`\w`, "010110110000010100"},
	{`\W`, "001111001111111111"},
	{`^\w+$`, "010000110000000000"},
	{`^\W+$`, "001001001111101011"},
	{`[\w]`, "010110110000010100"},
	{`[\W]`, "001111001111111111"},
	{`[^\w]`, "001111001111111111"},
	{`[^\W]`, "010110110000010100"},
	{`(?=.)\B`, "001011001111101011"},
	{`(?=a)\w+\b`, "010110000000010000"},
	{`a\b`, "010110000000010000"},
	{`\bé`, "000100000000000000"},
	{`é\B`, "001100000000000000"},
	{`^\B$`, "100000000000000000"},
	{`^\b$`, "000000000000000000"},
	{`\d`, "000000010000000000"},
	{`\D`, "011111101111111111"},
	{`[\d]`, "000000010000000000"},
	{`\B.\B`, "001001001111101011"},
	{`x\b.`, "000000000000000100"},
	{`(?<=\w)é`, "000100000000000000"},
	{`é(?=\W)`, "000000000000000000"},
	{`[\w-é]`, "011110110000011100"},
	{`^[^\d\W]+$`, "010000100000000000"},
	{`\b\w`, "010110110000010100"},
	{`(?<!\w)\w`, "010110110000010100"},
}

// TestWordClassesAndBoundaries runs the table on Compile and on each engine
// separately: the regexp2 spelling always, the RE2 spelling when the
// pattern has one.
func TestWordClassesAndBoundaries(t *testing.T) {
	for _, tc := range wordTable {
		if len(tc.want) != len(wordInputs) {
			t.Fatalf("table row %q has %d results for %d inputs", tc.pattern, len(tc.want), len(wordInputs))
		}
		tr, err := translateJS(tc.pattern)
		if err != nil {
			t.Fatalf("translateJS(%q): %v", tc.pattern, err)
		}
		bt, err := regexp2Compile(tr.ecma)
		if err != nil {
			t.Fatalf("regexp2 spelling of %q: %v", tc.pattern, err)
		}
		re, _ := regexpCompile(tr.re2)
		if tr.needBacktrack {
			re = nil
		}
		m, _ := Compile(ptr(tc.pattern))
		for i, in := range wordInputs {
			want := tc.want[i] == '1'
			if in != "" { // Match treats an empty value as matched by all
				if got := m.Match(in); got != want {
					t.Errorf("Compile(%q).Match(%q) = %v, JavaScript says %v", tc.pattern, in, got, want)
				}
			}
			if got, err := bt.MatchString(in); err != nil || got != want {
				t.Errorf("regexp2 %q (%s) on %q = %v (%v), JavaScript says %v", tc.pattern, tr.ecma, in, got, err, want)
			}
			if re != nil {
				if got := re.MatchString(in); got != want {
					t.Errorf("RE2 %q (%s) on %q = %v, JavaScript says %v", tc.pattern, tr.re2, in, got, want)
				}
			}
		}
	}
}

// TestWordTableAgainstNode checks the literal table against Node.js, with
// no flags and with the u flag (same answers wherever the u flag accepts
// the pattern).
func TestWordTableAgainstNode(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: the literal table is checked by TestWordClassesAndBoundaries alone")
	}
	script := filepath.Join(t.TempDir(), "word.js")
	const js = `const {patterns, inputs} = JSON.parse(require("fs").readFileSync(0, "utf8"));
const run = (p, f) => { try { const r = new RegExp(p, f); return inputs.map(s => r.test(s) ? "1" : "0").join(""); } catch (e) { return "error"; } };
process.stdout.write(JSON.stringify(patterns.map(p => [run(p, ""), run(p, "u")])));`
	if err := os.WriteFile(script, []byte(js), 0o600); err != nil {
		t.Fatal(err)
	}
	var patterns []string
	for _, tc := range wordTable {
		patterns = append(patterns, tc.pattern)
	}
	in, _ := json.Marshal(map[string]any{"patterns": patterns, "inputs": wordInputs})
	cmd := exec.Command(node, script)
	cmd.Stdin = bytes.NewReader(in)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	var got [][2]string
	if err := json.Unmarshal(out, &got); err != nil || len(got) != len(wordTable) {
		t.Fatalf("node output %q: %v", out, err)
	}
	for i, tc := range wordTable {
		if got[i][0] != tc.want {
			t.Errorf("pattern %q: node says %s, table says %s", tc.pattern, got[i][0], tc.want)
		}
		if u := got[i][1]; u != "error" && u != got[i][0] {
			t.Errorf("pattern %q: u flag gives %s, no flag %s", tc.pattern, u, got[i][0])
		}
	}
}

// TestSyntaxErrorsSayWhereAndWhat: a pattern JavaScript rejects is refused
// with the problem and the offset (a matcher diagnostic shows it); a
// dangling "-" at the end of a class is unterminated, not a range.
func TestSyntaxErrorsSayWhereAndWhat(t *testing.T) {
	for _, tc := range []struct{ pattern, want string }{
		{"[a-", "unterminated character class at offset 0"},
		{"[a", "unterminated character class at offset 0"},
		{`[\d-`, "unterminated character class at offset 0"},
		{"[z-a]", "range out of order in character class at offset 4"},
		{"(?<a", "unterminated group name at offset 0"},
		{"(?<", "unterminated group name at offset 0"},
		{"(?<1a>x)", `invalid group name "1a" at offset 0`},
		{"(?<a>x)(?<a>y)", `duplicate group name "a" at offset 7`},
		{"a)", "unmatched ')' at offset 1"},
		{"*a", "nothing to repeat at offset 0"},
		{"a{2,1}", "numbers out of order in {} quantifier at offset 1"},
		{"a{1,0}", "numbers out of order in {} quantifier at offset 1"},
		{"(a", "unterminated group at offset 2"},
		{`\`, `\ at end of pattern at offset 0`},
		{"(?", "invalid group at offset 0"},
		{`\k<x>(?<y>a)`, "invalid named reference at offset 0"},
	} {
		_, err := translateJS(tc.pattern)
		if err == nil || !errors.Is(err, errSyntax) || !strings.HasSuffix(err.Error(), ": "+tc.want) {
			t.Errorf("%q: error %v, want ...: %s", tc.pattern, err, tc.want)
		}
	}
}

// TestNodeCheckedPatterns (each row checked with node's RegExp): a "(" inside
// a class is no group, so \1 stays the octal escape \x01; punctuation
// bounds of a range ("]", "\", "^", "-") are the characters themselves;
// braced quantifiers count exactly, and a "{" that starts none is literal.
func TestNodeCheckedPatterns(t *testing.T) {
	for _, tc := range []struct {
		pattern, value string
		want           bool
	}{
		{`[x(]\1`, "(\x01", true},
		{`[x(]\1`, "x\x01", true},
		{`[x(]\1`, "(", false},
		{`[\]-a]`, "^", true},
		{`[\]-a]`, "]", true},
		{`[\]-a]`, "a", true},
		{`[\]-a]`, "b", false},
		{`[!--]`, "#", true},
		{`[!--]`, "-", true},
		{`[!--]`, ".", false},
		{`[\\-a]`, "^", true},
		{`[\\-a]`, "-", false},
		{`[\^-a]`, "_", true},
		{`[\^-a]`, "b", false},
		{`[\^-a]`, "-", false},
		{`^a{1,1}$`, "a", true},
		{`^a{0,0}$`, "", true},
		{`a{1`, "a{1", true},
		{`a{1,`, "a{1,", true},
		{`^a{1,x$`, "a{1,x", true},
		{`^a{9}$`, "aaaaaaaaa", true},
		{`^a{3}$`, "aaa", true},
		{`^a{3}$`, "aa", false},
		{`^a{2,}$`, "aaaa", true},
		// Character escapes: \c control letters (digits and _ only in a class),
		// \u surrogate pairs, legacy octal up to 0377, short \x and \u.
		{`^\ca$`, "\u0001", true},
		{`^\cz$`, "\u001a", true},
		{`^\cA$`, "\u0001", true},
		{`^\cZ$`, "\u001a", true},
		{`^\c@$`, "\\c@", true},
		{`^\c@$`, "\u0000", false},
		{`^[\c0]$`, "\u0010", true},
		{`^[\c9]$`, "\u0019", true},
		{`^[\c_]$`, "\u001f", true},
		{`^[\c:]$`, "\u001a", false},
		{`^\c0$`, "\\c0", true},
		{"^\\c`$", "\\c`", true},
		{`^\c{$`, "\\c{", true},
		{`^\ud83d\ude00$`, "😀", true},
		{`^\ud800\udc00$`, "𐀀", true},
		{`^\udbff\udfff$`, "􏿿", true},
		{`^\ud7ff$`, "퟿", true},
		{`^\377$`, "ÿ", true},
		{`^\400$`, " 0", true},
		{`^\18$`, "\u00018", true},
		{`^\7$`, "\u0007", true},
		{`^\08$`, "\u00008", true},
		{`^\378$`, "\u001f8", true},
		{`^\x41$`, "A", true},
		{`^\x4$`, "x4", true},
		{`^\u004$`, "u004", true},
	} {
		p := tc.pattern
		m, err := Compile(&p)
		if err != nil {
			t.Fatalf("%q: %v", p, err)
		}
		if got := m.Match(tc.value); got != tc.want {
			t.Errorf("%q on %q = %v, want %v", p, tc.value, got, tc.want)
		}
	}
}
