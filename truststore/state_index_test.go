package truststore

import (
	"testing"
	"time"
)

// TestNewStateOrderAndDuplicates: records come out sorted by workspace, then
// digest, and of two records for one workspace+digest the later one wins.
func TestNewStateOrderAndDuplicates(t *testing.T) {
	early, late := time.Unix(100, 0).UTC(), time.Unix(200, 0).UTC()
	s := newState(StatusOK, []Record{
		{WorkspaceID: "w2", Digest: "a"},
		{WorkspaceID: "w1", Digest: "b"},
		{WorkspaceID: "w1", Digest: "a", GrantedAt: early},
		{WorkspaceID: "w1", Digest: "a", GrantedAt: late},
	})
	var got []string
	for _, r := range s.Records {
		got = append(got, r.WorkspaceID+"/"+r.Digest)
	}
	want := []string{"w1/a", "w1/a", "w1/b", "w2/a"}
	if len(got) != len(want) {
		t.Fatalf("records %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("records %v, want %v", got, want)
		}
	}
	if r, ok := s.Lookup("w1", "a"); !ok || !r.GrantedAt.Equal(late) {
		t.Errorf("Lookup(w1, a) = %+v, %v; want the later duplicate (granted %v)", r, ok, late)
	}
	if _, ok := s.Lookup("w2", "b"); ok {
		t.Error("Lookup(w2, b) found a record that does not exist")
	}
}
