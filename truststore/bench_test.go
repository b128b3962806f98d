package truststore

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/truststore/pin"
)

func benchDecls(n int) ([]Declaration, []Record) {
	decls := make([]Declaration, n)
	recs := make([]Record, n)
	for i := range decls {
		h := wsHook(hook.PreToolUse, ptr("Bash"), i/10, i%10, fmt.Sprintf("node-%d", i))
		decls[i] = Declare(h)
		recs[i] = recordFor("/work/repo", h)
	}
	return decls, recs
}

// BenchmarkEvaluate100 is the admission fast path when nothing changed:
// 100 declarations, all trusted, State (and its index) built once per load.
func BenchmarkEvaluate100(b *testing.B) {
	decls, recs := benchDecls(100)
	in := EvalInput{WorkspaceID: "/work/repo", Policy: PolicyUserDecides, Store: newState(StatusOK, recs), Declarations: decls}
	b.ReportAllocs()
	for b.Loop() {
		if ev := Evaluate(in); ev[99].State != TrustedPersistent {
			b.Fatal(ev[99])
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/100, "ns/hook")
}

// BenchmarkAdmitOne is the runner's per-hook question right before a spawn.
func BenchmarkAdmitOne(b *testing.B) {
	decls, recs := benchDecls(100)
	in := EvalInput{WorkspaceID: "/work/repo", Policy: PolicyUserDecides, Store: newState(StatusOK, recs), Declarations: decls[42:43]}
	b.ReportAllocs()
	for b.Loop() {
		if ev := Evaluate(in); ev[0].State != TrustedPersistent {
			b.Fatal(ev[0])
		}
	}
}

// BenchmarkEvaluate100Pinned: every record pins one script; the hash cache
// turns each check into open+fstat.
func BenchmarkEvaluate100Pinned(b *testing.B) {
	root := b.TempDir()
	writeFile(b, filepath.Join(root, "scripts/guard.mjs"), "console.log(1)")
	decls, recs := benchDecls(100)
	for i := range recs {
		recs[i].ScriptPins = map[string]string{"scripts/guard.mjs": hexSum("console.log(1)")}
	}
	in := EvalInput{WorkspaceID: "/work/repo", Store: newState(StatusOK, recs), Declarations: decls,
		WorkspaceRoot: root, Hashes: pin.NewHashCache()}
	b.ReportAllocs()
	for b.Loop() {
		if ev := Evaluate(in); ev[99].State != TrustedPersistent {
			b.Fatal(ev[99])
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/100, "ns/hook")
}

func BenchmarkDigest(b *testing.B) {
	h := digestHooks()["non_ascii"]
	b.ReportAllocs()
	for b.Loop() {
		_ = Digest(h)
	}
}

// BenchmarkGrant: uncontended lock + read + merge + temp write + 2 fsyncs + rename,
// into a file already holding 100 records.
func BenchmarkGrant(b *testing.B) {
	s := Open(filepath.Join(b.TempDir(), "security"), Options{})
	_, recs := benchDecls(100)
	if err := s.Grant("/work/repo", recs); err != nil {
		b.Fatal(err)
	}
	rec := []Record{{Digest: hexSum("bench")}}
	b.ReportAllocs()
	for b.Loop() {
		if err := s.Grant("/work/repo", rec); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLoad100 reads and indexes a 100-record file (once per store version).
func BenchmarkLoad100(b *testing.B) {
	s := Open(filepath.Join(b.TempDir(), "security"), Options{})
	_, recs := benchDecls(100)
	if err := s.Grant("/work/repo", recs); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if st, err := s.Load(); err != nil || len(st.Records) != 100 {
			b.Fatal(err)
		}
	}
}

func BenchmarkChanged(b *testing.B) {
	s := Open(filepath.Join(b.TempDir(), "security"), Options{})
	if err := s.Grant("/work/repo", []Record{{Digest: hexSum("x")}}); err != nil {
		b.Fatal(err)
	}
	_, _ = s.Load()
	for b.Loop() {
		if s.Changed() {
			b.Fatal("changed")
		}
	}
}

// BenchmarkAdmitUnchanged is the runner's question right before each
// workspace hook (Gate.Admit) with 100 trusted declarations in the trust
// file and nothing changed since the last check: it must still notice a
// grant or revoke made by another process at the very next check, so it
// stats the trust file every time. Target: < 5 µs per check.
func BenchmarkAdmitUnchanged(b *testing.B) {
	decls, recs := benchDecls(100)
	dir := filepath.Join(b.TempDir(), "security")
	g := NewGate(GateOptions{WorkspaceID: "/work/repo", Policy: PolicyUserDecides, Feature: true, Dir: dir})
	if err := g.Store().Grant("/work/repo", recs); err != nil {
		b.Fatal(err)
	}
	if ev := g.Evaluate(decls); ev[99].State != TrustedPersistent {
		b.Fatal(ev[99])
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if ev := g.Admit(decls[i%100]); ev.State != TrustedPersistent {
			b.Fatal(ev)
		}
		i++
	}
}

// BenchmarkAdmitSites: Gate.Admit of a pinned declaration whose record
// holds one pin set, or MaxSites of them, with the session at the site of
// the last set compared: the remembered resolution is checked once (Hold),
// then compared with each set, so more sites cost a comparison each.
func BenchmarkAdmitSites(b *testing.B) {
	for _, n := range []int{1, MaxSites} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			root := b.TempDir()
			h := cmdHook("./g.sh")
			dir := filepath.Join(b.TempDir(), "security")
			clock := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
			st := Open(dir, Options{Now: func() time.Time { clock = clock.Add(time.Minute); return clock }})
			for i := range n {
				d := filepath.Join(root, fmt.Sprintf("d%02d", i))
				writeFile(b, filepath.Join(d, "g.sh"), "echo "+d+"\n")
				at := pin.Site{Dir: d, ProjectDir: d}
				w := NewWorkspaceAt(root, at, nil, []hook.Hook{h}, []bool{true})
				if err := GrantShown(st, "w", Show(w), w.Declarations); err != nil {
					b.Fatal(err)
				}
			}
			first := pin.Site{Dir: filepath.Join(root, "d00"), ProjectDir: filepath.Join(root, "d00")}
			g := NewGate(GateOptions{WorkspaceID: "w", Root: root, Site: first, Feature: true, Dir: dir})
			defer g.hashes.Close()
			d := Declare(h)
			b.ReportAllocs()
			for b.Loop() {
				if ev := g.Admit(d); ev.State != TrustedPersistent {
					b.Fatal(ev)
				}
			}
		})
	}
}
