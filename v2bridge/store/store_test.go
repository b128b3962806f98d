package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

func TestOpen(t *testing.T) {
	t.Run("migrations_are_idempotent_on_reopen", func(t *testing.T) {
		db, path := openTest(t, Options{})
		must[Definition](t)(db.CreateDefinition(bg, testDef("a", "turn.completed")))
		db.Close()
		for range 3 {
			db2 := reopen(t, path, Options{})
			var n, max int
			if err := db2.r.QueryRow(`SELECT count(*), max(version) FROM schema_migrations`).Scan(&n, &max); err != nil {
				t.Fatal(err)
			}
			if n != SchemaVersion() || max != SchemaVersion() {
				t.Fatalf("schema_migrations: %d rows, max %d; want %d", n, max, SchemaVersion())
			}
			defs := must[[]Definition](t)(db2.ListDefinitions(bg, ""))
			if len(defs) != 1 {
				t.Fatalf("definitions after reopen: %d", len(defs))
			}
			db2.Close()
		}
	})

	t.Run("schema_newer_than_the_binary_is_refused", func(t *testing.T) {
		db, path := openTest(t, Options{})
		if _, err := db.w.Exec(`INSERT INTO schema_migrations(version, applied_at) VALUES (?, '')`, SchemaVersion()+1); err != nil {
			t.Fatal(err)
		}
		db.Close()
		if db2, err := Open(path, Options{}); !errors.Is(err, ErrSchemaTooNew) {
			if err == nil {
				db2.Close()
			}
			t.Fatalf("reopen of a newer schema: %v, want ErrSchemaTooNew", err)
		}
	})

	t.Run("concurrent_first_open_by_two_handles", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "h.db")
		var wg sync.WaitGroup
		errs := make([]error, 4)
		for i := range errs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				db, err := Open(path, Options{})
				if err == nil {
					db.Close()
				}
				errs[i] = err
			}()
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
	})

	t.Run("path_is_a_plain_file_name", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "a%20b #c")
		os.Mkdir(dir, 0o700)
		db := reopen(t, filepath.Join(dir, "h.db"), Options{})
		db.Close()
		if _, err := os.Stat(filepath.Join(dir, "h.db")); err != nil {
			t.Fatal(err)
		}
		if _, err := Open(filepath.Join(dir, "x?y.db"), Options{}); !errors.Is(err, ErrInvalid) {
			t.Fatalf("path with '?': %v", err)
		}
	})

	t.Run("wal_and_pragmas", func(t *testing.T) {
		db, _ := openTest(t, Options{})
		var mode string
		var sync, fk, busy int
		db.w.QueryRow(`PRAGMA journal_mode`).Scan(&mode)
		db.w.QueryRow(`PRAGMA synchronous`).Scan(&sync)
		db.w.QueryRow(`PRAGMA foreign_keys`).Scan(&fk)
		db.w.QueryRow(`PRAGMA busy_timeout`).Scan(&busy)
		if mode != "wal" || sync != 2 || fk != 1 || busy != 5000 {
			t.Fatalf("journal_mode=%s synchronous=%d foreign_keys=%d busy_timeout=%d", mode, sync, fk, busy)
		}
	})

	t.Run("garbage_file_is_ErrCorrupt", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "garbage.db")
		b := make([]byte, 16384)
		rand.Read(b)
		os.WriteFile(path, b, 0o600)
		_, err := Open(path, Options{})
		if !errors.Is(err, ErrCorrupt) {
			t.Fatalf("Open(garbage) = %v, want ErrCorrupt", err)
		}
	})

	t.Run("damaged_pages_are_ErrCorrupt", func(t *testing.T) {
		db, path := openTest(t, Options{})
		db.Close()
		// Fold the WAL into the main file, then trash everything after the header.
		raw, _ := sql.Open("sqlite", path)
		raw.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`)
		raw.Exec(`PRAGMA journal_mode=DELETE`)
		raw.Close()
		f, _ := os.OpenFile(path, os.O_RDWR, 0)
		junk := make([]byte, 4096*4)
		rand.Read(junk)
		f.WriteAt(junk, 100)
		f.Close()
		_, err := Open(path, Options{})
		if !errors.Is(err, ErrCorrupt) {
			t.Fatalf("Open(damaged) = %v, want ErrCorrupt", err)
		}
	})

	t.Run("locked_beyond_busy_timeout_is_ErrBusy", func(t *testing.T) {
		db, path := openTest(t, Options{BusyTimeout: 50 * time.Millisecond, BusyRetries: 1})
		other, err := sql.Open("sqlite", "file:"+path+"?_busy_timeout=50")
		if err != nil {
			t.Fatal(err)
		}
		defer other.Close()
		conn, _ := other.Conn(bg)
		defer conn.Close()
		if _, err := conn.ExecContext(bg, `BEGIN IMMEDIATE`); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		err = db.PutKV(bg, "k", "v")
		if !errors.Is(err, ErrBusy) {
			t.Fatalf("PutKV under a held write lock = %v, want ErrBusy", err)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Fatalf("gave up after %v", d)
		}
		conn.ExecContext(bg, `ROLLBACK`)
		if err := db.PutKV(bg, "k", "v"); err != nil {
			t.Fatalf("after the lock is released: %v", err)
		}
	})
}

func TestDefinitions(t *testing.T) {
	db, _ := openTest(t, Options{})
	d := must[Definition](t)(db.CreateDefinition(bg, testDef("a", "turn.completed")))
	if d.Revision != 1 || d.ID == "" || d.ConcurrencyPolicy != SerialPerSession || d.TimeoutMs != 15000 {
		t.Fatalf("created %+v", d)
	}
	b1 := must[Binding](t)(db.CreateBinding(bg, d.ID, ScopeApplication, "ignored"))
	b2 := must[Binding](t)(db.CreateBinding(bg, d.ID, ScopeSession, "s1"))
	b3 := must[Binding](t)(db.CreateBinding(bg, d.ID, ScopeAgent, "ag"))
	if b1.ScopeID != "" || b1.State != BindingActive || b2.State != BindingActive {
		t.Fatalf("bindings: %+v %+v", b1, b2)
	}
	if _, err := db.CreateBinding(bg, d.ID, ScopeSession, "s1"); !errors.Is(err, ErrConflict) {
		t.Fatalf("duplicate binding: %v", err)
	}
	if _, err := db.CreateBinding(bg, d.ID, ScopeWorkspace, ""); !errors.Is(err, ErrInvalid) {
		t.Fatalf("workspace without id: %v", err)
	}
	if _, err := db.CreateBinding(bg, "nope", ScopeApplication, ""); !errors.Is(err, ErrNotFound) {
		t.Fatalf("binding of unknown hook: %v", err)
	}
	off := false
	must[Binding](t)(db.UpdateBinding(bg, b3.ID, BindingPatch{Enabled: &off}))

	t.Run("non_execution_change_keeps_revision_and_trust", func(t *testing.T) {
		d2 := d
		d2.Name, d2.Enabled = "renamed", false
		out, n, err := db.UpdateDefinition(bg, d2)
		if err != nil || out.Revision != 1 || n != 0 {
			t.Fatalf("rename: rev %d, n %d, %v", out.Revision, n, err)
		}
		if b := must[Binding](t)(db.GetBinding(bg, b2.ID)); b.State != BindingActive {
			t.Fatalf("state after rename: %s", b.State)
		}
	})

	t.Run("hash_change_bumps_revision_and_needs_review", func(t *testing.T) {
		d2 := d
		d2.TimeoutMs, d2.ExecutionHash = 20000, "hash-2"
		out, n, err := db.UpdateDefinition(bg, d2)
		if err != nil || out.Revision != 2 || n != 2 {
			t.Fatalf("hash change: rev %d, needsReview %d (want 2: disabled not counted), %v", out.Revision, n, err)
		}
		for _, id := range []string{b1.ID, b2.ID} {
			if b := must[Binding](t)(db.GetBinding(bg, id)); b.State != BindingNeedsReview {
				t.Fatalf("binding %s: %s", id, b.State)
			}
		}
		if b := must[Binding](t)(db.GetBinding(bg, b3.ID)); b.State != BindingDisabled {
			t.Fatalf("disabled binding: %s", b.State)
		}
		// Reauthorizing with a wrong hash keeps needs_review; the right one activates.
		wrong, right := "hash-1", "hash-2"
		if b := must[Binding](t)(db.UpdateBinding(bg, b2.ID, BindingPatch{Authorize: &wrong})); b.State != BindingNeedsReview {
			t.Fatalf("wrong hash: %s", b.State)
		}
		if b := must[Binding](t)(db.UpdateBinding(bg, b2.ID, BindingPatch{Authorize: &right})); b.State != BindingActive || b.TrustedAt.IsZero() {
			t.Fatalf("right hash: %+v", b)
		}
		// Toggling enabled keeps trust (§7.3 second path).
		on := true
		must[Binding](t)(db.UpdateBinding(bg, b2.ID, BindingPatch{Enabled: &off}))
		if b := must[Binding](t)(db.UpdateBinding(bg, b2.ID, BindingPatch{Enabled: &on})); b.State != BindingActive {
			t.Fatalf("toggle: %s", b.State)
		}
		// RequireCurrent refuses the wrong hash and changes nothing, enabled
		// included; the right one passes.
		_, err = db.UpdateBinding(bg, b2.ID, BindingPatch{Enabled: &off, Authorize: &wrong, RequireCurrent: true})
		var hm *HashMismatchError
		if !errors.As(err, &hm) || !errors.Is(err, ErrHashMismatch) || hm.Current != right || hm.Given != wrong || hm.BindingID != b2.ID {
			t.Fatalf("RequireCurrent with the wrong hash: %v", err)
		}
		if b := must[Binding](t)(db.GetBinding(bg, b2.ID)); b.State != BindingActive || !b.Enabled {
			t.Fatalf("after the refused authorization: %+v", b)
		}
		if b := must[Binding](t)(db.UpdateBinding(bg, b2.ID, BindingPatch{Authorize: &right, RequireCurrent: true})); b.State != BindingActive {
			t.Fatalf("RequireCurrent with the right hash: %s", b.State)
		}
	})

	t.Run("condition_null_removes_it", func(t *testing.T) {
		d2 := must[Definition](t)(db.GetDefinition(bg, d.ID))
		d2.Condition = json.RawMessage(`{"op":"exists","left":{"path":"payload.message"}}`)
		d2.ExecutionHash = "hash-3"
		must[Definition](t)(func() (Definition, error) { o, _, e := db.UpdateDefinition(bg, d2); return o, e }())
		d2.Condition = json.RawMessage(`null`)
		d2.ExecutionHash = "hash-4"
		must[Definition](t)(func() (Definition, error) { o, _, e := db.UpdateDefinition(bg, d2); return o, e }())
		if got := must[Definition](t)(db.GetDefinition(bg, d.ID)); got.Condition != nil || got.Revision != 4 {
			t.Fatalf("condition %s revision %d", got.Condition, got.Revision)
		}
	})

	t.Run("delete_cascades_bindings_and_keeps_runs", func(t *testing.T) {
		db.Emit(bg, testEvent("ev-del", "s1"))
		must[[]Run](t)(db.ResolveEvent(bg, "ev-del", []NewRun{{HookID: d.ID, HookRevision: 4}}))
		bd, rr, err := db.DeleteDefinition(bg, d.ID)
		if err != nil || bd != 3 || rr != 1 {
			t.Fatalf("delete: bindingsDeleted %d runsRetained %d %v", bd, rr, err)
		}
		if bs := must[[]Binding](t)(db.ListBindings(bg, "")); len(bs) != 0 {
			t.Fatalf("bindings left: %d", len(bs))
		}
		if n := must[int](t)(db.CountRunsOfHook(bg, d.ID)); n != 1 {
			t.Fatalf("runs after delete: %d", n)
		}
		if _, _, err := db.DeleteDefinition(bg, d.ID); !errors.Is(err, ErrNotFound) {
			t.Fatalf("second delete: %v", err)
		}
	})
}

func TestHasEnabledDefinition(t *testing.T) {
	a, path := openTest(t, Options{})
	b := reopen(t, path, Options{}) // a second handle = another process's view
	has := func(db *DB, ev string) bool {
		t.Helper()
		return must[bool](t)(db.HasEnabledDefinition(bg, ev))
	}
	if has(a, "turn.completed") || has(b, "turn.completed") {
		t.Fatal("empty db has definitions")
	}
	d := must[Definition](t)(b.CreateDefinition(bg, testDef("x", "turn.completed")))
	if !has(b, "turn.completed") {
		t.Fatal("own write not seen")
	}
	if !has(a, "turn.completed") {
		t.Fatal("other handle's write not seen (data_version check)")
	}
	if has(a, "turn.failed") {
		t.Fatal("wrong event")
	}
	// Unrelated writes do not change the answer; a disable by the other handle does.
	a.Emit(bg, testEvent("e1", "s"))
	if !has(a, "turn.completed") {
		t.Fatal("lost after unrelated write")
	}
	d.Enabled = false
	if _, _, err := b.UpdateDefinition(bg, d); err != nil {
		t.Fatal(err)
	}
	if has(a, "turn.completed") {
		t.Fatal("disable by other handle not seen")
	}
}

func TestSettingsAndKV(t *testing.T) {
	db, _ := openTest(t, Options{})
	s := must[Settings](t)(db.GetSettings(bg))
	if !s.Enabled || s.AllowHighWrite || s.Retention != DefaultRetention() {
		t.Fatalf("defaults: %+v", s)
	}
	off, yes := false, true
	r := RetentionPolicy{ResolvedEventDays: 1, FailedEventDays: 2, RunDays: 0, BatchLimit: 10}
	s = must[Settings](t)(db.UpdateSettings(bg, SettingsPatch{Enabled: &off, AllowHighWrite: &yes, Retention: &r}))
	if s.Enabled || !s.AllowHighWrite || s.Retention != r {
		t.Fatalf("updated: %+v", s)
	}
	if _, ok, _ := db.GetKV(bg, "cursor"); ok {
		t.Fatal("kv not empty")
	}
	db.PutKV(bg, "cursor", "42")
	if v, ok, err := db.GetKV(bg, "cursor"); !ok || v != "42" || err != nil {
		t.Fatalf("kv: %q %v %v", v, ok, err)
	}
}

func TestLegacyImport(t *testing.T) {
	db, _ := openTest(t, Options{})
	d := testDef("legacy sound", "turn.completed")
	d.ID = "builtin-legacy-session_end-sound"
	im := LegacyImport{
		Definitions: []Definition{d},
		Bindings: []LegacyBinding{{HookID: d.ID, ScopeKind: ScopeApplication, Enabled: true},
			{HookID: d.ID, ScopeKind: ScopeAgent, ScopeID: "a1", Enabled: false}},
		Ownership: "v2",
	}
	res := must[LegacyResult](t)(db.ApplyLegacyImport(bg, im))
	if res.DefinitionsCreated != 1 || res.BindingsCreated != 2 {
		t.Fatalf("first import: %+v", res)
	}
	res = must[LegacyResult](t)(db.ApplyLegacyImport(bg, im))
	if res.DefinitionsCreated != 0 || res.BindingsCreated != 0 {
		t.Fatalf("second import not idempotent: %+v", res)
	}
	bs := must[[]Binding](t)(db.ListBindings(bg, d.ID))
	if len(bs) != 2 || bs[0].State != BindingActive || bs[1].State != BindingDisabled {
		t.Fatalf("legacy bindings: %+v", bs)
	}
	if v, ok, _ := db.GetKV(bg, OwnershipKey); !ok || v != "v2" {
		t.Fatal("ownership marker missing")
	}
	// All or nothing: a binding for an unknown hook rolls back the definitions too.
	d2 := testDef("other", "turn.failed")
	d2.ID = "builtin-legacy-session_fail-sound"
	_, err := db.ApplyLegacyImport(bg, LegacyImport{Definitions: []Definition{d2},
		Bindings: []LegacyBinding{{HookID: "missing", ScopeKind: ScopeApplication, Enabled: true}}})
	if !errors.Is(err, ErrNotFound) {
		t.Fatalf("bad import: %v", err)
	}
	if _, err := db.GetDefinition(bg, d2.ID); !errors.Is(err, ErrNotFound) {
		t.Fatal("failed import left a definition behind")
	}
}

var _ = context.Background
