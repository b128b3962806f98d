package store

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// TestClaimSkipsUnparseableSnapshot: a snapshot SQLite's JSON functions
// cannot read (nested deeper than its limit of 1000) must not make every
// claim fail: the claim query reads the action type from its own column.
func TestClaimSkipsUnparseableSnapshot(t *testing.T) {
	db, _ := openTest(t, Options{})
	deep := strings.Repeat("[", 1200) + strings.Repeat("]", 1200)
	db.Emit(bg, testEvent("e1", "poison"))
	db.Emit(bg, testEvent("e2", "ok"))
	must[[]Run](t)(db.ResolveEvent(bg, "e1", []NewRun{{HookID: "cmd", HookRevision: 1,
		Execution: json.RawMessage(`{"action":{"type":"command"},"envelope":{"payload":{"deep":` + deep + `}}}`)}}))
	must[[]Run](t)(db.ResolveEvent(bg, "e2", []NewRun{{HookID: "cmd", HookRevision: 1,
		Execution: json.RawMessage(`{"action":{"type":"notification"}}`)}}))
	now := time.Now()
	r, ok, err := db.ClaimRun(bg, "w", time.Minute, now, ClaimFilter{ActionTypes: []string{"notification"}})
	if err != nil || !ok || r.SessionID != "ok" {
		t.Fatalf("claim behind a deep snapshot: %+v %v %v", r, ok, err)
	}
	r, ok, err = db.ClaimRun(bg, "w", time.Minute, now, ClaimFilter{ActionTypes: []string{"command"}})
	if err != nil || !ok || r.SessionID != "poison" {
		t.Fatalf("deep snapshot not claimable by type: %+v %v %v", r, ok, err)
	}
}
