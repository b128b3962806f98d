package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/hookside/hookside/truststore"
)

// TestDescribeDeclShowsUnpinned: the words pinning could not follow
// (truststore.DeclarationStatus.Unpinned) are printed under the pins in
// `hooks trust status` and `review`, so a reviewer sees them.
func TestDescribeDeclShowsUnpinned(t *testing.T) {
	var b bytes.Buffer
	describeDecl(&b, 1, truststore.DeclarationStatus{Unpinned: []string{"$HOOKS/k.sh", "./hooks/$N.sh"}})
	want := "     unpinned $HOOKS/k.sh, ./hooks/$N.sh (words pinning could not follow: review what they run)\n"
	if !strings.Contains(b.String(), want) {
		t.Fatalf("describeDecl:\n%s\nwant the line %q", b.String(), want)
	}
	b.Reset()
	describeDecl(&b, 1, truststore.DeclarationStatus{})
	if strings.Contains(b.String(), "unpinned") {
		t.Fatalf("no unpinned words, yet:\n%s", b.String())
	}
}
