package store

import (
	"encoding/json"
	"testing"
	"time"
)

// TestClaimRunActionTypes: a process claims only runs whose snapshot action
// it can execute (v2bridge's ownership rule for host actions).
func TestClaimRunActionTypes(t *testing.T) {
	db, _ := openTest(t, Options{})
	db.Emit(bg, testEvent("e1", "s1"))
	must[[]Run](t)(db.ResolveEvent(bg, "e1", []NewRun{
		{HookID: "notify", HookRevision: 1, Execution: json.RawMessage(`{"action":{"type":"notification"}}`)},
		{HookID: "cmd", HookRevision: 1, Execution: json.RawMessage(`{"action":{"type":"command"}}`)},
	}))
	now := time.Now()
	if _, ok, err := db.ClaimRun(bg, "w", time.Minute, now, ClaimFilter{ActionTypes: []string{}}); ok || err != nil {
		t.Fatalf("empty list claimed (%v, %v)", ok, err)
	}
	r, ok, err := db.ClaimRun(bg, "w", time.Minute, now, ClaimFilter{ActionTypes: []string{"command", "sound"}})
	if !ok || err != nil || r.HookID != "cmd" {
		t.Fatalf("claimed %+v %v %v", r, ok, err)
	}
	if _, ok, _ := db.ClaimRun(bg, "w", time.Minute, now, ClaimFilter{ActionTypes: []string{"command"}}); ok {
		t.Fatal("claimed a notification run without declaring it")
	}
	r, ok, _ = db.ClaimRun(bg, "w", time.Minute, now, ClaimFilter{ActionTypes: []string{"notification"}})
	if !ok || r.HookID != "notify" {
		t.Fatalf("claimed %+v", r)
	}
}
