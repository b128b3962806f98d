package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestV2ReadOnlyCommandsCreateNothing: list and get of definitions,
// bindings and runs, and retry and cancel of runs (records that must
// exist), on a home that does not exist answer as an empty
// database would (empty list, exit 0; get: not found, exit 3; invalid
// filters still exit 2) and leave the home missing; on a home directory
// without a database they create no database either.
func TestV2ReadOnlyCommandsCreateNothing(t *testing.T) {
	parent := t.TempDir()
	missing := filepath.Join(parent, "no", "such", "home")
	bare := filepath.Join(parent, "bare")
	if err := os.Mkdir(bare, 0o700); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args   []string
		code   int
		stdout string // exact --json or text output, when set
	}{
		{[]string{"definitions", "list", "--json"}, exitOK, "{\n  \"definitions\": []\n}\n"},
		{[]string{"definitions", "list"}, exitOK, "no definitions\n"},
		{[]string{"definitions", "list", "--event", "no.such"}, exitUsage, ""},
		{[]string{"definitions", "get", "note"}, exitNotFound, ""},
		{[]string{"bindings", "list", "--json"}, exitOK, "{\n  \"bindings\": []\n}\n"},
		{[]string{"bindings", "list", "--hook", "note"}, exitOK, "no bindings\n"},
		{[]string{"bindings", "get", "bind_1"}, exitNotFound, ""},
		{[]string{"runs", "list", "--json"}, exitOK, "{\n  \"runs\": [],\n  \"nextCursor\": null\n}\n"},
		{[]string{"runs", "list", "--status", "bogus"}, exitUsage, ""},
		{[]string{"runs", "list", "--event", "no.such"}, exitUsage, ""},
		{[]string{"runs", "get", "run_1"}, exitNotFound, ""},
		{[]string{"runs", "retry", "run_1"}, exitNotFound, ""},
		{[]string{"runs", "cancel", "run_1"}, exitNotFound, ""},
	}
	for _, home := range []string{missing, bare} {
		for _, c := range cases {
			code, stdout, stderr := runCLI(append(append([]string{"v2"}, c.args...), "--home", home)...)
			if code != c.code || (c.stdout != "" && stdout != c.stdout) {
				t.Errorf("%s: v2 %v: exit %d (want %d)\nstdout %q (want %q)\nstderr %s", home, c.args, code, c.code, stdout, c.stdout, stderr)
			}
			if c.code == exitNotFound && !strings.Contains(stderr, "not found") {
				t.Errorf("v2 %v: stderr does not say not found: %s", c.args, stderr)
			}
		}
	}
	if _, err := os.Stat(filepath.Join(parent, "no")); !os.IsNotExist(err) {
		t.Errorf("the missing home's parent exists after read-only commands: %v", err)
	}
	if ents, err := os.ReadDir(bare); err != nil || len(ents) != 0 {
		t.Errorf("the bare home has %v after read-only commands (%v), want nothing", ents, err)
	}
	// HOOKSIDE_HOME is honoured the same way as --home.
	t.Setenv("HOOKSIDE_HOME", missing)
	if code, stdout, stderr := runCLI("v2", "definitions", "list", "--json"); code != exitOK || stdout != "{\n  \"definitions\": []\n}\n" {
		t.Errorf("HOOKSIDE_HOME: exit %d %q %s", code, stdout, stderr)
	}
	if _, err := os.Stat(filepath.Join(parent, "no")); !os.IsNotExist(err) {
		t.Errorf("HOOKSIDE_HOME created: %v", err)
	}
	// A write still creates the home.
	if code, _, stderr := runCLI("v2", "bindings", "create", "--hook", "note", "--scope", "application", "--home", missing); code != exitNotFound {
		t.Errorf("create: exit %d %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(missing, "hookside.db")); err != nil {
		t.Errorf("a write did not create the database: %v", err)
	}
}

// TestV2BindingsUpdateWrongHashRefused: `bindings update --authorize` with
// a hash other than the definition's current one fails -32016, exit 1
// (as a refused retry or a stale trust grant), names both hashes and the
// command that shows the current one, and changes nothing: an active
// binding stays active, a needs_review one stays enabled with
// --enabled=false given alongside. The right hash then activates it.
func TestV2BindingsUpdateWrongHashRefused(t *testing.T) {
	home := t.TempDir()
	write := fileWriter(t)
	def := write("def.json", `{"id":"note","name":"N","eventName":"turn.completed","action":{"type":"command","hook":{"type":"command","command":"echo hi"}}}`)
	if code, errs := v2cli(t, home, nil, "definitions", "create", "--file", def); code != 0 {
		t.Fatalf("create: exit %d %s", code, errs)
	}
	var bd struct{ ID, State string }
	if code, errs := v2cli(t, home, &bd, "bindings", "create", "--hook", "note", "--scope", "application", "--json"); code != 0 || bd.State != "active" {
		t.Fatalf("binding create: exit %d %+v %s", code, bd, errs)
	}
	state := func() (string, bool) {
		var got struct {
			Binding struct {
				State   string
				Enabled bool
			}
		}
		if code, errs := v2cli(t, home, &got, "bindings", "get", bd.ID, "--json"); code != 0 {
			t.Fatalf("get: exit %d %s", code, errs)
		}
		return got.Binding.State, got.Binding.Enabled
	}
	var cur struct {
		Definition struct{ ExecutionHash string }
	}
	v2cli(t, home, &cur, "definitions", "get", "note", "--json")

	var e wireErr
	code, errs := v2cli(t, home, &e, "bindings", "update", bd.ID, "--authorize", "deadbeef", "--json")
	if code != exitError || e.Error.Code != -32016 || e.Error.Data["given"] != "deadbeef" || e.Error.Data["executionHash"] != cur.Definition.ExecutionHash ||
		!strings.Contains(errs, `authorize hash "deadbeef" is not the current execution hash of definition note (`+cur.Definition.ExecutionHash+")") ||
		!strings.Contains(errs, "hookside v2 definitions get note") {
		t.Errorf("wrong hash on an active binding: exit %d %+v\n%s", code, e, errs)
	}
	if s, en := state(); s != "active" || !en {
		t.Errorf("after the refused authorization: %s enabled %v, want active", s, en)
	}

	// After an executing change the binding needs review; a wrong hash
	// with --enabled=false is refused as a whole.
	patch := write("patch.json", `{"action":{"type":"command","hook":{"type":"command","command":"echo bye"}}}`)
	if code, errs := v2cli(t, home, nil, "definitions", "update", "note", "--file", patch); code != 0 {
		t.Fatalf("update: exit %d %s", code, errs)
	}
	if code, errs := v2cli(t, home, nil, "bindings", "update", bd.ID, "--enabled=false", "--authorize", cur.Definition.ExecutionHash); code != exitError || !strings.Contains(errs, "not changed") {
		t.Errorf("the old hash: exit %d %s", code, errs)
	}
	if s, en := state(); s != "needs_review" || !en {
		t.Errorf("after the refused authorization: %s enabled %v, want needs_review, enabled", s, en)
	}
	v2cli(t, home, &cur, "definitions", "get", "note", "--json")
	if code, out, errs := runCLI("v2", "bindings", "update", bd.ID, "--authorize", cur.Definition.ExecutionHash, "--home", home); code != 0 || !strings.Contains(out, "active") {
		t.Errorf("the current hash: exit %d %s %s", code, out, errs)
	}
}

// TestV2FileErrorsNamePosition: every JSON file a v2 command reads reports
// a problem with its content as file:line:col of the offending byte or
// value — a truncated file at its end, a type error at the value, an
// invalid definition field at that field, a missing required key at the
// object lacking it — in the text, the --json error and for stdin.
func TestV2FileErrorsNamePosition(t *testing.T) {
	home := t.TempDir()
	write := fileWriter(t)
	def := write("def.json", `{"id":"note","name":"N","eventName":"turn.completed","action":{"type":"command","hook":{"type":"command","command":"echo hi"}}}`)
	if code, errs := v2cli(t, home, nil, "definitions", "create", "--file", def); code != 0 {
		t.Fatalf("create: exit %d %s", code, errs)
	}
	truncated := write("truncated.json", "{\n  \"id\": \"seed\",\n  \"eventName\": \"turn.completed\",\n")
	typeErr := write("type.json", "{\n  \"id\": \"seed\",\n  \"eventName\": \"turn.completed\",\n  \"timeoutMs\": \"fast\",\n"+
		"  \"action\": {\"type\": \"command\", \"hook\": {\"type\": \"command\", \"command\": \"true\"}}\n}\n")
	badEnum := write("enum.json", "{\"id\": \"seed\", \"name\": \"S\", \"eventName\": \"turn.completed\",\n \"action\": {\n   \"type\": \"bogus\"}}")
	patch := write("patch.json", "{\n\t\"concurrencyPolicy\": \"sometimes\"\n}")
	evTrunc := write("ev-truncated.json", `{"eventName": "turn.completed", "session": {"id": "s1"`)
	evType := write("ev-type.json", "{\"eventName\": \"turn.completed\",\n  \"session\": {\"id\": 5}}")
	evMissing := write("ev-missing.json", "{\"eventName\": \"turn.completed\",\n  \"session\": {\"title\": \"no id\"}}")
	evPayload := write("ev-payload.json", "{\"eventName\": \"turn.completed\",\n  \"payload\": \"str\"}")
	evPayloadBool := write("ev-payload-bool.json", "{\"eventName\": \"turn.completed\", \"payload\": true}")
	evBOMType := write("ev-bom-type.json", "\ufeff{\"eventName\": \"turn.completed\",\n  \"session\": {\"id\": 5}}")
	evLatin1 := write("ev-latin1.json", "{\"eventName\": \"turn.completed\",\n  \"session\": {\"id\": \"caf\xe9\"}}")
	evDup := write("ev-dup.json", "{\"eventName\": \"turn.completed\",\n \"eventName\": \"turn.started\", \"session\": {\"id\": \"s1\"}}")
	defDup := write("def-dup.json", "\ufeff{\"id\":\"dup\",\"name\":\"A\",\"name\":\"B\",\"eventName\":\"turn.completed\",\"action\":{\"type\":\"command\",\"hook\":{\"type\":\"command\",\"command\":\"true\"}}}")
	huge := write("huge.json", "")
	if err := os.Truncate(huge, maxInputBytes+1); err != nil {
		t.Fatal(err)
	}
	defBOM := write("def-bom.json", "\ufeff{\"id\":\"bom\",\"name\":\"B\",\"eventName\":\"turn.completed\",\"action\":{\"type\":\"command\",\"hook\":{\"type\":\"command\",\"command\":\"true\"}}}")
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"definitions", "create", "--file", truncated}, exitUsage, truncated + ":4:1: invalid JSON: unexpected end of JSON input"},
		{[]string{"definitions", "upsert", "--file", truncated}, exitUsage, truncated + ":4:1: invalid JSON"},
		{[]string{"definitions", "update", "note", "--file", truncated}, exitUsage, truncated + ":4:1: invalid JSON"},
		{[]string{"definitions", "create", "--file", typeErr}, exitUsage, "definition.timeoutMs: " + typeErr + ":4:16: invalid_type: timeoutMs must be an integer"},
		{[]string{"definitions", "upsert", "--file", typeErr}, exitUsage, "definition.timeoutMs: " + typeErr + ":4:16: invalid_type"},
		{[]string{"definitions", "create", "--file", badEnum}, exitUsage, "definition.action.type: " + badEnum + ":3:12: invalid_enum"},
		{[]string{"definitions", "update", "note", "--file", patch}, exitUsage, "patch.concurrencyPolicy: " + patch + ":2:23: "},
		{[]string{"emit", "--file", evTrunc}, exitUsage, "hookside v2 emit: " + evTrunc + ":1:55: invalid JSON: unexpected end of JSON input"},
		{[]string{"emit", "--file", evType}, exitUsage, "hookside v2 emit: " + evType + ":2:21: session.id must be a string, got number"},
		{[]string{"emit", "--file", evMissing}, exitUsage, "session.id: " + evMissing + ":2:14: required"},
		{[]string{"emit", "--file", evPayload}, exitUsage, "hookside v2 emit: " + evPayload + ":2:14: payload must be an object, got string"},
		{[]string{"emit", "--file", evPayloadBool}, exitUsage, "hookside v2 emit: " + evPayloadBool + ":1:44: payload must be an object, got bool"},
		// A leading byte order mark (Windows editors) is skipped and takes
		// no column; a byte that is not UTF-8 is named where it is.
		{[]string{"emit", "--file", evBOMType}, exitUsage, "hookside v2 emit: " + evBOMType + ":2:21: session.id must be a string, got number"},
		{[]string{"emit", "--file", evLatin1}, exitUsage, "hookside v2 emit: " + evLatin1 + ":2:25: not valid UTF-8: byte 0xe9 at offset 56"},
		// A member named twice is refused, as over the wire, at its repeat.
		{[]string{"emit", "--file", evDup}, exitUsage, evDup + ":2:2: duplicate member \"eventName\""},
		{[]string{"definitions", "create", "--file", defDup}, exitUsage, defDup + ":1:24: duplicate member \"name\""},
		// More than the 64 MiB frame limit is refused without reading on.
		{[]string{"emit", "--file", huge}, exitUsage, huge + ": larger than 64 MiB"},
		{[]string{"definitions", "create", "--file", defBOM}, 0, ""},
	} {
		code, stdout, stderr := runCLI(append(append([]string{"v2"}, c.args...), "--home", home)...)
		if code != c.code || !strings.Contains(stderr, c.want) {
			t.Errorf("v2 %v: exit %d (want %d), stderr does not contain %q:\n%s%s", c.args, code, c.code, c.want, stdout, stderr)
		}
	}
	var e wireErr
	if code, _ := v2cli(t, home, &e, "definitions", "create", "--file", typeErr, "--json"); code != exitUsage ||
		!strings.Contains(e.Error.Message, typeErr+":4:16: ") || e.Error.Data["field"] != "definition.timeoutMs" {
		t.Errorf("--json: exit %d %+v", code, e)
	}
	old := stdinReader
	defer func() { stdinReader = old }()
	stdinReader = strings.NewReader("{\"id\":\n")
	if code, _, stderr := runCLI("v2", "definitions", "create", "--file", "-", "--home", home); code != exitUsage || !strings.Contains(stderr, "<stdin>:2:1: invalid JSON") {
		t.Errorf("stdin: exit %d %s", code, stderr)
	}
	// An unreadable file is not a position problem: emit exits 1 as before.
	if code, _, stderr := runCLI("v2", "emit", "--file", filepath.Join(t.TempDir(), "none.json"), "--home", home); code != exitError || !strings.Contains(stderr, "none.json") {
		t.Errorf("missing event file: exit %d %s", code, stderr)
	}
}
