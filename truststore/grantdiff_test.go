package truststore

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/hookside/hookside/internal/hook"
)

// TestStaleGrantShowsWhatChanged: for a stale grant, Describe names the
// pinned file whose content changed (script_changed), the declaration
// fields old vs new (declaration_changed), and says "details not recorded"
// for a record that lacks what differs (an older grant without the
// discovery order).
func TestStaleGrantShowsWhatChanged(t *testing.T) {
	const ws = "/w"
	root := t.TempDir()
	script := filepath.Join(root, "guard.sh")
	writeFile(t, script, "exit 0\n")
	h := hook.Hook{Event: hook.PreToolUse, Matcher: ptr("Bash"),
		Source: hook.Source{Kind: hook.SourceWorkspace, RelativePath: "zcode.json"},
		Type:   hook.TypeProcess, Command: "sh", Args: []string{"./guard.sh"},
		TimeoutMs: hook.DefaultTimeoutMs, MaxOutputBytes: hook.DefaultMaxOutputBytes}
	workspace := func(h hook.Hook) *Workspace {
		return &Workspace{Root: root, Cwd: root, Declarations: []Declaration{Declare(h)}, Enabled: []bool{true}}
	}
	w := workspace(h)
	sh := Show(w)
	granted := newPinnedRecord(ws, h, sh.Pins[0], sh.Sites[0])
	s := Open(filepath.Join(t.TempDir(), "security"), Options{})
	if err := s.Grant(ws, []Record{granted}); err != nil {
		t.Fatal(err)
	}
	st, err := s.Load()
	if err != nil {
		t.Fatal(err)
	}
	describe := func(w *Workspace) DeclarationStatus {
		evs := Evaluate(EvalInput{WorkspaceID: ws, Store: st, Declarations: w.Declarations, WorkspaceRoot: root})
		return Describe(w, evs, Show(w))[0]
	}
	if d := describe(w); d.TrustState != TrustedPersistent || d.Changes != nil {
		t.Fatalf("trusted: want no changes, got %s %+v", d.TrustState, d.Changes)
	}

	writeFile(t, script, "rm -rf /\n")
	d := describe(w)
	if d.TrustState != StaleDigest || d.Reason != ReasonScriptChanged || d.Changes == nil {
		t.Fatalf("script edit: %s %s %+v", d.TrustState, d.Reason, d.Changes)
	}
	c := d.Changes
	if c.GrantedDigest != granted.Digest || len(c.Declaration) != 0 || len(c.Scripts) != 1 ||
		c.Scripts[0].Path != "guard.sh" || c.Scripts[0].Change != "changed" ||
		c.Scripts[0].Old.SHA256 == c.Scripts[0].New.SHA256 || c.Note != "" {
		t.Fatalf("script edit changes: %s", mustJSON(t, c))
	}

	writeFile(t, script, "exit 0\n")
	h2 := h
	h2.Command, h2.TimeoutMs = "bash", 5000
	d = describe(workspace(h2))
	if d.TrustState != StaleDigest || d.Reason != ReasonDeclarationChanged || d.Changes == nil {
		t.Fatalf("declaration edit: %s %s", d.TrustState, d.Reason)
	}
	got := map[string][2]any{}
	for _, f := range d.Changes.Declaration {
		got[f.Field] = [2]any{f.Old, f.New}
	}
	if len(got) != 2 || got["command"] != [2]any{"sh", "bash"} || got["timeoutMs"] != [2]any{hook.DefaultTimeoutMs, 5000} ||
		len(d.Changes.Scripts) != 0 || d.Changes.GrantedDigest != granted.Digest {
		t.Fatalf("declaration edit changes: %s", mustJSON(t, d.Changes))
	}

	// A record written before the discovery order was recorded, for a
	// declaration that moved to another discovery position: nothing the
	// record holds differs.
	h3 := h
	h3.Source.DiscoveryOrder = 1
	old := newPinnedRecord(ws, h, sh.Pins[0], sh.Sites[0])
	old.Snapshot.DiscoveryOrder = nil
	st = newState(StatusOK, []Record{old})
	d = describe(workspace(h3))
	if d.TrustState != StaleDigest || d.Changes == nil || d.Changes.Note != NoteNotRecorded {
		t.Fatalf("old record: %s %s", d.TrustState, mustJSON(t, d.Changes))
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
