package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestV2DuplicateCreateHasNoDriverText: a second create of the same
// definition id, or of the same binding, fails -32016 (exit 1) with a plain
// message naming the record and the way out; neither stdout nor stderr
// carries SQLite's text.
func TestV2DuplicateCreateHasNoDriverText(t *testing.T) {
	home := t.TempDir()
	def := fileWriter(t)("def.json", `{"id":"note","name":"Note","eventName":"turn.completed","action":{"type":"command","hook":{"type":"command","command":"echo hi"}}}`)
	if code, errs := v2cli(t, home, nil, "definitions", "create", "--file", def); code != 0 {
		t.Fatalf("create: exit %d %s", code, errs)
	}
	if code, errs := v2cli(t, home, nil, "bindings", "create", "--hook", "note", "--scope", "application"); code != 0 {
		t.Fatalf("binding create: exit %d %s", code, errs)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"definitions", "create", "--file", def}, "a definition with id note already exists; use update or upsert"},
		{[]string{"bindings", "create", "--hook", "note", "--scope", "application"}, "a binding of hook note at scope application already exists; use update or upsert"},
	} {
		for _, asJSON := range []bool{false, true} {
			args := append([]string{"v2"}, c.args...)
			if asJSON {
				args = append(args, "--json")
			}
			code, stdout, stderr := runCLI(append(args, "--home", home)...)
			all := stdout + stderr
			if code != exitError || !strings.Contains(all, c.want) || !strings.Contains(all, "-32016") {
				t.Errorf("%v: exit %d, want %d and %q:\n%s", args, code, exitError, c.want, all)
			}
			for _, leak := range []string{"UNIQUE", "constraint", "sqlite", "SQLITE", "1555", "2067", "store:"} {
				if strings.Contains(all, leak) {
					t.Errorf("%v: output carries %q:\n%s", args, leak, all)
				}
			}
		}
	}
}

// TestV2UpsertCLI: `v2 definitions upsert` creates, then reports unchanged
// for the same file and updated (revision 2) for a changed one; `v2 bindings
// upsert` creates, then returns the same binding unchanged; text and --json
// both name the outcome.
func TestV2UpsertCLI(t *testing.T) {
	home := t.TempDir()
	write := fileWriter(t)
	def := write("def.json", `{"id":"seed","name":"Seed","eventName":"turn.completed","action":{"type":"command","hook":{"type":"command","command":"echo hi"}}}`)
	changed := write("def2.json", `{"id":"seed","name":"Seed","eventName":"turn.completed","action":{"type":"command","hook":{"type":"command","command":"echo bye"}}}`)
	type defOut struct {
		Definition struct {
			ID       string
			Revision int
		}
		Outcome               string
		BindingsNeedingReview int
	}
	var d defOut
	if code, errs := v2cli(t, home, &d, "definitions", "upsert", "--file", def, "--json"); code != 0 || d.Outcome != "created" || d.Definition.Revision != 1 {
		t.Fatalf("first upsert: exit %d %+v %s", code, d, errs)
	}
	if code, out, errs := runCLI("v2", "definitions", "upsert", "--file", def, "--home", home); code != 0 || !strings.Contains(out, "unchanged seed (revision 1)") {
		t.Errorf("same upsert (text): exit %d %q %s", code, out, errs)
	}

	type bindOut struct {
		Binding struct{ ID, State string }
		Outcome string
	}
	var b1, b2 bindOut
	if code, errs := v2cli(t, home, &b1, "bindings", "upsert", "--hook", "seed", "--scope", "workspace", "--scope-id", "ws1", "--json"); code != 0 || b1.Outcome != "created" || b1.Binding.State != "active" {
		t.Fatalf("binding upsert: exit %d %+v %s", code, b1, errs)
	}
	if code, errs := v2cli(t, home, &b2, "bindings", "upsert", "--hook", "seed", "--scope", "workspace", "--scope-id", "ws1", "--json"); code != 0 || b2.Outcome != "unchanged" || b2.Binding.ID != b1.Binding.ID {
		t.Errorf("second binding upsert: exit %d %+v %s", code, b2, errs)
	}
	if code, out, _ := runCLI("v2", "bindings", "upsert", "--hook", "seed", "--scope", "workspace", "--scope-id", "ws1", "--home", home); code != 0 || !strings.HasPrefix(out, "unchanged binding "+b1.Binding.ID) {
		t.Errorf("binding upsert (text): exit %d %q", code, out)
	}

	d = defOut{}
	if code, errs := v2cli(t, home, &d, "definitions", "upsert", "--file", changed, "--json"); code != 0 || d.Outcome != "updated" || d.Definition.Revision != 2 || d.BindingsNeedingReview != 1 {
		t.Errorf("changed upsert: exit %d %+v %s", code, d, errs)
	}
	noID := write("noid.json", `{"name":"X","eventName":"turn.completed","action":{"type":"command","hook":{"type":"command","command":"echo hi"}}}`)
	if code, errs := v2cli(t, home, nil, "definitions", "upsert", "--file", noID); code != exitUsage || !strings.Contains(errs, "definition.id") {
		t.Errorf("upsert without id: exit %d %s", code, errs)
	}
	if code, errs := v2cli(t, home, nil, "bindings", "upsert", "--hook", "ghost", "--scope", "application"); code != exitNotFound || !strings.Contains(errs, "[code -32013]") {
		t.Errorf("binding upsert of an unknown definition: exit %d %s", code, errs)
	}
}

// TestV2DatabaseErrorDetailOnlyWithVerbose: a corrupt hookside.db fails
// exit 4 with a plain reason; the driver's text appears only in the -v
// debug log.
func TestV2DatabaseErrorDetailOnlyWithVerbose(t *testing.T) {
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "hookside.db"), []byte(strings.Repeat("not sqlite ", 1000)), 0o600); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCLI("v2", "definitions", "list", "--home", home)
	if code != exitUnavailable || !strings.Contains(stderr, "corrupt or not an SQLite database") || strings.Contains(stdout+stderr, "(26)") {
		t.Errorf("plain: exit %d\n%s%s", code, stdout, stderr)
	}
	code, _, stderr = runCLI("v2", "definitions", "list", "--home", home, "-v")
	if code != exitUnavailable || !strings.Contains(stderr, "v2 database error") || !strings.Contains(stderr, "detail=") {
		t.Errorf("-v: exit %d\n%s", code, stderr)
	}
}
