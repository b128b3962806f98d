package randid

import (
	"regexp"
	"testing"
)

func TestNewIsPrefixAnd32HexDigits(t *testing.T) {
	re := regexp.MustCompile(`^run_[0-9a-f]{32}$`)
	seen := map[string]bool{}
	for range 1000 {
		id := New("run_")
		if !re.MatchString(id) {
			t.Fatalf("%q", id)
		}
		if seen[id] {
			t.Fatalf("duplicate %q", id)
		}
		seen[id] = true
	}
}

func TestUUIDIsVersion4Canonical(t *testing.T) {
	re := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	if u := UUID(); !re.MatchString(u) {
		t.Fatalf("%q", u)
	}
}
