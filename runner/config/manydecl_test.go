package config

import (
	"bytes"
	"fmt"
	"runtime"
	"strconv"
	"testing"

	"github.com/hookside/hookside/internal/hook"
)

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
// declarations, one a line and all on one line; the cost per declaration
// should not grow with their number.
func BenchmarkParseFileDeclarations(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("lines/%d", n), func(b *testing.B) { benchmarkParseMany(b, n, false) })
		b.Run(fmt.Sprintf("oneline/%d", n), func(b *testing.B) { benchmarkParseMany(b, n, true) })
	}
}
