//go:build unix

package proc

import (
	"errors"
	"maps"
	"os"
	"strings"
	"testing"
)

// The table holds exactly the groups tracked and not untracked, reuses
// freed slots, and rewrites a group tracked twice in place.
func TestJanitorTable(t *testing.T) {
	tab, err := newTable()
	if err != nil {
		t.Fatal(err)
	}
	defer tab.f.Close()
	want := map[int]string{}
	check := func(step string) {
		t.Helper()
		got, err := readTable(tab.f)
		if err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		if !maps.Equal(got, want) {
			t.Fatalf("%s: table holds %v, want %v", step, got, want)
		}
	}
	check("empty")
	long := strings.Repeat("k", tableTokenMax)
	for pgid := 100; pgid < 140; pgid++ {
		tok := NewToken()
		if pgid == 139 {
			tok = long
		}
		if err := tab.track(pgid, tok); err != nil {
			t.Fatal(err)
		}
		want[pgid] = tok
	}
	check("40 tracked")
	for pgid := 100; pgid < 140; pgid += 2 {
		if err := tab.untrack(pgid); err != nil {
			t.Fatal(err)
		}
		delete(want, pgid)
	}
	if err := tab.untrack(99); err != nil { // never tracked
		t.Fatal(err)
	}
	check("half untracked")
	size := tab.next
	for pgid := 200; pgid < 220; pgid++ {
		if err := tab.track(pgid, ""); err != nil {
			t.Fatal(err)
		}
		want[pgid] = ""
	}
	if tab.next != size {
		t.Errorf("20 new groups grew the table from %d to %d slots with 20 free", size, tab.next)
	}
	if err := tab.track(101, "again"); err != nil {
		t.Fatal(err)
	}
	want[101] = "again"
	check("reused slots, one group rewritten")
}

// A janitor whose descriptor 3 is not a table (closed, or some other
// file) finds no groups and says so, without killing anything.
func TestReadTableRefusesOtherFiles(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "x")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(strings.Repeat("+1234 token\n", 10)); err != nil {
		t.Fatal(err)
	}
	if _, err := readTable(f); !errors.Is(err, errNoTable) {
		t.Fatalf("a file of lines: %v", err)
	}
	if _, err := readTable(os.NewFile(^uintptr(0)>>1, "none")); err == nil {
		t.Fatal("an invalid descriptor read as a table")
	}
}
