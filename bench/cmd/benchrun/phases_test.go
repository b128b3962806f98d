package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestPhasesOfPairsStampsWithMarks(t *testing.T) {
	f := filepath.Join(t.TempDir(), "stamps")
	// Two events; the first is a warm one and is skipped.
	if err := os.WriteFile(f, []byte("1000 2000\n10000 13000\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ph, err := phasesOf(f, [][2]int64{{0, 3000}, {9000, 19000}}, 1)
	if err != nil {
		t.Fatal(err)
	}
	// µs: mark → start 1, start → end 3, end → reply 6.
	if len(ph[0]) != 1 || ph[0][0] != 1 || ph[1][0] != 3 || ph[2][0] != 6 {
		t.Fatalf("phases %v", ph)
	}
	if _, err := phasesOf(f, [][2]int64{{0, 1}}, 0); err == nil || !strings.Contains(err.Error(), "2 stamps for 1 events") {
		t.Fatalf("a missing stamp: %v", err)
	}
}
