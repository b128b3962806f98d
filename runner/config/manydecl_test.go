package config

import (
	"bytes"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/hookside/hookside/internal/hook"
)

// liftEntryLimit raises the per-file entry limit for the rest of t, for
// tests that measure the cost of more declarations than a file may hold.
func liftEntryLimit(t testing.TB) {
	old := maxFileEntries
	maxFileEntries = 1 << 30
	t.Cleanup(func() { maxFileEntries = old })
}

// manyDeclarations is a hookside file with n PreToolUse matcher groups of
// one command hook each ("echo 0", "echo 1", …), all on one line when
// minified (as json.dump and JSON.stringify write a file), else one group
// a line; offs[i] is the byte offset of hook i's command value (its At).
func manyDeclarations(n int, minified bool) (data []byte, offs []int) {
	var b bytes.Buffer
	sep := ",\n"
	if minified {
		sep = ","
	}
	b.WriteString(`{"hooks":{"enabled":true,"events":{"PreToolUse":[`)
	for i := range n {
		if i > 0 {
			b.WriteString(sep)
		}
		b.WriteString(`{"hooks":[{"type":"command","command":`)
		offs = append(offs, b.Len())
		b.WriteString(`"echo ` + strconv.Itoa(i) + `"}]}`)
	}
	b.WriteString(`]}}}`)
	return b.Bytes(), offs
}

// TestManyDeclarationsPositions: every declaration of a 20,000-declaration
// file on one line gets its own line:column (col = offset+1), so the
// positions are computed once per file and not rescanned from the start
// per declaration (20,000 rescans of a 1 MB line took seconds; the index
// reads each byte about once).
func TestManyDeclarationsPositions(t *testing.T) {
	if testing.Short() {
		t.Skip("20,000 declarations")
	}
	liftEntryLimit(t)
	const n = 20000
	data, offs := manyDeclarations(n, true)
	f, diags := ParseFile("/w/zcode.json", data, hook.SourceWorkspace)
	if len(diags) != 0 || len(f.Hooks) != n {
		t.Fatalf("%d hooks, diagnostics %v", len(f.Hooks), diags)
	}
	for i, h := range f.Hooks {
		if want := fmt.Sprintf("/w/zcode.json:1:%d", offs[i]+1); h.At != want || h.Command != "echo "+strconv.Itoa(i) {
			t.Fatalf("hook %d: %s at %s, want at %s", i, h.Command, h.At, want)
		}
	}
}

// TestManyDeclarationsAllocLinear: parsing allocates about as many bytes
// per declaration at 10,000 declarations as at 1,000 (no per-declaration
// copy of what came before), and about as many objects.
func TestManyDeclarationsAllocLinear(t *testing.T) {
	liftEntryLimit(t)
	per := func(n int) (bytesPer, objsPer float64) {
		data, _ := manyDeclarations(n, false)
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		f, _ := ParseFile("/w/zcode.json", data, hook.SourceWorkspace)
		runtime.ReadMemStats(&after)
		if len(f.Hooks) != n {
			t.Fatalf("%d hooks, want %d", len(f.Hooks), n)
		}
		return float64(after.TotalAlloc-before.TotalAlloc) / float64(n), float64(after.Mallocs-before.Mallocs) / float64(n)
	}
	b1, o1 := per(1000)
	b10, o10 := per(10000)
	t.Logf("per declaration: %.0f B, %.1f allocs at 1k; %.0f B, %.1f allocs at 10k", b1, o1, b10, o10)
	if b10 > 1.5*b1 || o10 > 1.5*o1 {
		t.Errorf("per declaration at 10k: %.0f B, %.1f allocs; at 1k: %.0f B, %.1f allocs", b10, o10, b1, o1)
	}
}

func benchmarkParseMany(b *testing.B, n int, minified bool) {
	liftEntryLimit(b)
	data, _ := manyDeclarations(n, minified)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if f, _ := ParseFile("/w/zcode.json", data, hook.SourceWorkspace); len(f.Hooks) != n {
			b.Fatalf("%d hooks", len(f.Hooks))
		}
	}
}

// BenchmarkParseFileDeclarations: ParseFile of a file of 1,000 and 10,000
// declarations, one a line and all on one line (the file limit lifted:
// 10,000 is over it); the cost per declaration should not grow with their
// number. refused/10000 is the same file under the limit: one count and
// one diagnostic.
func BenchmarkParseFileDeclarations(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("lines/%d", n), func(b *testing.B) { benchmarkParseMany(b, n, false) })
		b.Run(fmt.Sprintf("oneline/%d", n), func(b *testing.B) { benchmarkParseMany(b, n, true) })
	}
	b.Run("refused/10000", func(b *testing.B) {
		data, _ := manyDeclarations(10000, true)
		b.ReportAllocs()
		for b.Loop() {
			if f, diags := ParseFile("/w/zcode.json", data, hook.SourceWorkspace); len(f.Hooks) != 0 || len(diags) != 1 {
				b.Fatalf("%d hooks, %v", len(f.Hooks), diags)
			}
		}
	})
}

// TestFileEntriesLimit: MaxFileEntries matcher groups, or hook
// declarations, all events together, load; one more of either is one
// config_too_many_hooks error at the first entry over the limit (file,
// line, column) and no hooks, no rejected entries from the file.
func TestFileEntriesLimit(t *testing.T) {
	const cmd = `{"type":"command","command":"true"}`
	groups := func(n int, perGroup int) string {
		hs := strings.TrimSuffix(strings.Repeat(cmd+",", perGroup), ",")
		return strings.TrimSuffix(strings.Repeat(`{"hooks":[`+hs+`]},`, n), ",")
	}
	// at is the offset of the entry over the limit: the last group
	// (lastGroup), the last hook object, or the last "1".
	const lastGroup, lastHook, lastOne = `{"hooks":[`, `{"type"`, `1`
	for _, tc := range []struct {
		name, events string
		hooks        int
		msg, at      string
	}{
		{"groups at the limit", `"PreToolUse":[` + groups(MaxFileEntries, 1) + `]`, MaxFileEntries, "", ""},
		{"groups over, split across events", `"PreToolUse":[` + groups(MaxFileEntries-1, 1) + `],"Stop":[` + groups(2, 1) + `]`, 0,
			"Stop[1]: more than 2048 matcher groups in one file; none of this file's hooks are loaded", lastGroup},
		{"declarations over in one group", `"Stop":[` + groups(1, MaxFileEntries+1) + `]`, 0,
			"Stop[0][2048]: more than 2048 hook declarations in one file; none of this file's hooks are loaded", lastHook},
		{"declarations over across groups", `"PreToolUse":[` + groups(1024, 2) + `],"Stop":[` + groups(1, 1) + `]`, 0,
			"Stop[0][0]: more than 2048 hook declarations in one file; none of this file's hooks are loaded", lastHook},
		{"malformed entries count", `"Stop":[` + strings.Repeat(`1,`, MaxFileEntries) + `1]`, 0,
			"Stop[2048]: more than 2048 matcher groups in one file; none of this file's hooks are loaded", lastOne},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := []byte(`{"hooks":{"enabled":true,"events":{` + tc.events + `}}}`)
			f, diags := ParseFile("/w/zcode.json", data, hook.SourceWorkspace)
			if len(f.Hooks) != tc.hooks {
				t.Errorf("%d hooks, want %d", len(f.Hooks), tc.hooks)
			}
			if tc.msg == "" {
				if len(diags) != 0 {
					t.Errorf("diagnostics %v", diags)
				}
				return
			}
			if len(diags) != 1 || len(f.Rejected) != 0 {
				t.Fatalf("diagnostics %v, %d rejected; want one", diags, len(f.Rejected))
			}
			d := diags[0]
			last := strings.LastIndex(string(data), tc.at)
			if want := fmt.Sprintf("/w/zcode.json:1:%d", last+1); d.Code != hook.CodeTooManyHooks || d.Severity != hook.SeverityError || d.Source != want || d.Message != tc.msg {
				t.Errorf("got %+v, want %s at %s: %q", d, hook.CodeTooManyHooks, want, tc.msg)
			}
		})
	}
}

// TestFileEntriesLimitSpark: the largest settings file spark's own limits
// allow (4 events × 32 groups × 16 commands = MaxFileEntries) loads whole;
// the file limit applies to Claude Code–shaped files too.
func TestFileEntriesLimitSpark(t *testing.T) {
	const cmd = `{"type":"command","command":"true"}`
	group := `{"hooks":[` + strings.TrimSuffix(strings.Repeat(cmd+",", 16), ",") + `]}`
	ev := `[` + strings.TrimSuffix(strings.Repeat(group+",", 32), ",") + `]`
	data := []byte(`{"hooks":{"UserPromptSubmit":` + ev + `,"PreToolUse":` + ev + `,"PostToolUse":` + ev + `,"Stop":` + ev + `}}`)
	f, diags := ParseSettingsFile(hook.Spark, "/w/.spark/settings.json", data, hook.SourceWorkspace)
	if len(f.Hooks) != MaxFileEntries || len(diags) != 0 {
		t.Errorf("spark at the limit: %d hooks, diagnostics %v", len(f.Hooks), diags)
	}
	big := []byte(`{"hooks":{"Stop":[{"hooks":[` + strings.TrimSuffix(strings.Repeat(cmd+",", MaxFileEntries+1), ",") + `]}]}}`)
	f, diags = ParseSettingsFile(hook.Claude, "/w/.claude/settings.json", big, hook.SourceWorkspace)
	if len(f.Hooks) != 0 || len(diags) != 1 || diags[0].Code != hook.CodeTooManyHooks {
		t.Errorf("claude over the limit: %d hooks, diagnostics %v", len(f.Hooks), diags)
	}
}

// TestPluginDirsLimit: MaxPluginDirs plugins.dirs entries load; one more is
// one config_too_many_hooks error at that entry and no plugin directory of
// the file (each may hold MaxFileEntries declarations: hundreds of them
// made a review take minutes).
func TestPluginDirsLimit(t *testing.T) {
	dirs := func(n int) string {
		var b strings.Builder
		for i := range n {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `"p%d"`, i)
		}
		return b.String()
	}
	data := []byte(`{"plugins":{"dirs":[` + dirs(MaxPluginDirs) + `]}}`)
	if f, diags := ParseFile("/w/zcode.json", data, hook.SourceWorkspace); len(f.PluginDirs) != MaxPluginDirs || len(diags) != 0 {
		t.Errorf("at the limit: %d dirs, %v", len(f.PluginDirs), diags)
	}
	data = []byte(`{"plugins":{"dirs":[` + dirs(MaxPluginDirs+1) + `]}}`)
	f, diags := ParseFile("/w/zcode.json", data, hook.SourceWorkspace)
	want := fmt.Sprintf("/w/zcode.json:1:%d", strings.Index(string(data), `"p16"`)+1)
	if len(f.PluginDirs) != 0 || len(diags) != 1 || diags[0].Code != hook.CodeTooManyHooks || diags[0].Source != want ||
		diags[0].Message != "plugins.dirs[16]: more than 16 plugin directories in one file; none of them are loaded" {
		t.Errorf("over the limit: %d dirs, %+v; want none and one error at %s", len(f.PluginDirs), diags, want)
	}
}
