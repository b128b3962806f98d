package main

import (
	"testing"

	"github.com/hookside/hookside/truststore/pin"
)

// TestDescribePinGlobWithoutMatch: a glob that matches nothing reads as
// such, not as a hash of matches (the hash of the empty list).
func TestDescribePinGlobWithoutMatch(t *testing.T) {
	if got := describePin(pin.PinEntry{Path: "tests/index.*", Kind: "glob", SHA256: pin.NoMatches}); got != "tests/index.* (glob, no match now)" {
		t.Errorf("empty glob: %q", got)
	}
	other := "1111111111111111111111111111111111111111111111111111111111111111"
	if got := describePin(pin.PinEntry{Path: "hooks/*.sh", Kind: "glob", SHA256: other}); got != "hooks/*.sh (glob, matches sha256:"+shortHash(other)+")" {
		t.Errorf("glob with matches: %q", got)
	}
}
