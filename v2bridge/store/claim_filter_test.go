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

// TestClaimReadFirst: ReadFirst claims what a plain claim claims and
// nothing when the filter matches no queued run.
func TestClaimReadFirst(t *testing.T) {
	db, _ := openTest(t, Options{OneConnection: true})
	seedRuns(t, db, "e", []string{"s1"}, []string{"h1"}, SerialPerSession)
	now := time.Now()
	if _, ok, err := db.ClaimRun(bg, "W", time.Minute, now, ClaimFilter{SessionID: "s2", ReadFirst: true}); ok || err != nil {
		t.Fatalf("other session: claimed %v, %v", ok, err)
	}
	if _, ok, err := db.ClaimRun(bg, "W", time.Minute, now, ClaimFilter{SessionID: "s1", ActionTypes: []string{"command"}, ReadFirst: true}); ok || err != nil {
		t.Fatalf("other action type: claimed %v, %v", ok, err)
	}
	r, ok, err := db.ClaimRun(bg, "W", time.Minute, now, ClaimFilter{SessionID: "s1", ActionTypes: []string{"sound"}, ReadFirst: true})
	if !ok || err != nil || r.Status != RunRunning || r.SessionID != "s1" {
		t.Fatalf("claim: %+v %v %v", r, ok, err)
	}
	if _, ok, err := db.ClaimRun(bg, "W", time.Minute, now, ClaimFilter{SessionID: "s1", ReadFirst: true}); ok || err != nil {
		t.Fatalf("nothing left: claimed %v, %v", ok, err)
	}
}
