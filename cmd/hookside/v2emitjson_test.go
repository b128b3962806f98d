package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestV2EmitJSONErrors: `v2 emit --json` prints the v2 error object
// {"error": {code, message, data}} on stdout for every failure before the
// event is written (flag errors, a missing or unreadable --file, invalid
// JSON, invalid params), with the same exit status as without --json;
// without --json stdout stays empty.
func TestV2EmitJSONErrors(t *testing.T) {
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	bad, unknown := filepath.Join(dir, "bad.json"), filepath.Join(dir, "unknown.json")
	if err := os.WriteFile(bad, []byte("{bad"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(unknown, []byte(`{"eventName":"nope"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args  []string
		exit  int
		code  float64
		field string
	}{
		{[]string{"--bogus"}, exitUsage, -32602, "--bogus"},
		{nil, exitUsage, -32602, "--file"},
		{[]string{"--file", bad}, exitUsage, -32602, "--file"},
		{[]string{"--file", unknown}, exitUsage, -32602, "eventName"},
		{[]string{"--file", filepath.Join(dir, "missing.json")}, exitError, -32603, "--file"},
	} {
		args := append([]string{"v2", "emit", "--home", home}, c.args...)
		code, stdout, _ := runCLI(append(args, "--json")...)
		var got struct {
			Error struct {
				Code    float64           `json:"code"`
				Message string            `json:"message"`
				Data    map[string]string `json:"data"`
			} `json:"error"`
		}
		if code != c.exit || json.Unmarshal([]byte(stdout), &got) != nil || got.Error.Code != c.code ||
			got.Error.Message == "" || got.Error.Data["field"] != c.field {
			t.Errorf("%v --json: exit %d (want %d), stdout %q (want code %v, field %q)", c.args, code, c.exit, stdout, c.code, c.field)
		}
		if code, stdout, _ := runCLI(args...); code != c.exit || stdout != "" {
			t.Errorf("%v: exit %d (want %d), stdout %q (want none)", c.args, code, c.exit, stdout)
		}
	}
}

// TestV2EmitDuplicateOfAnotherSession: two sessions whose turns share an id
// emit the same derived event id; the second emit is a duplicate (§3.2:
// dropped unread) and says whose event it collided with and why, in its
// notes (--json) and on stderr. The first session's emit again says
// nothing of the kind.
func TestV2EmitDuplicateOfAnotherSession(t *testing.T) {
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	files := map[string]string{
		"def.json": `{"id":"n","name":"n","eventName":"turn.completed","action":{"type":"command","hook":{"type":"process","command":"true"}}}`,
		"a.json":   `{"eventName":"turn.completed","session":{"id":"winA"},"turn":{"id":"turn-1"}}`,
		"b.json":   `{"eventName":"turn.completed","session":{"id":"winB"},"turn":{"id":"turn-1"}}`,
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"definitions", "create", "--file", filepath.Join(dir, "def.json")},
		{"bindings", "create", "--hook", "n", "--scope", "application"}} {
		if code, out, errs := runCLI(append([]string{"v2", "--home", home}, args...)...); code != exitOK {
			t.Fatalf("%v: exit %d\n%s%s", args, code, out, errs)
		}
	}
	emit := func(file string) (emitOutput, string) {
		t.Helper()
		code, out, errs := runCLI("v2", "emit", "--home", home, "--file", filepath.Join(dir, file), "--json")
		var got emitOutput
		if err := json.Unmarshal([]byte(out), &got); code != exitOK || err != nil {
			t.Fatalf("emit %s: exit %d %v\n%s%s", file, code, err, out, errs)
		}
		return got, errs
	}
	if got, _ := emit("a.json"); got.Duplicate || len(got.Notes) != 0 {
		t.Fatalf("first emit: %+v", got)
	}
	got, errs := emit("b.json")
	want := `this event of session "winB" was dropped as a duplicate of session "winA"'s`
	if !got.Duplicate || len(got.Notes) != 1 || !strings.HasPrefix(got.Notes[0], want) || !strings.Contains(errs, want) {
		t.Errorf("winB's emit: duplicate %v, notes %q, stderr %q; want the note %q", got.Duplicate, got.Notes, errs, want)
	}
	if got, _ := emit("a.json"); !got.Duplicate || len(got.Notes) != 0 {
		t.Errorf("winA's emit again: %+v, want a duplicate without notes", got)
	}
}

// TestV2EmitWaitZero: --wait 0 writes and dispatches the event and runs
// nothing here: every command run is left queued (leftQueued not_waited),
// never started and cut short, a note says who runs it, exit 0.
func TestV2EmitWaitZero(t *testing.T) {
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	marker := filepath.Join(dir, "ran")
	def := `{"id":"n","name":"n","eventName":"turn.completed","action":{"type":"command","hook":{"type":"process","command":"touch","args":[` + strconv.Quote(marker) + `]}}}`
	if err := os.WriteFile(filepath.Join(dir, "def.json"), []byte(def), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"definitions", "create", "--file", filepath.Join(dir, "def.json")},
		{"bindings", "create", "--hook", "n", "--scope", "application"}} {
		if code, out, errs := runCLI(append([]string{"v2", "--home", home}, args...)...); code != exitOK {
			t.Fatalf("%v: exit %d\n%s%s", args, code, out, errs)
		}
	}
	for i := range 3 {
		ev := filepath.Join(dir, "ev.json")
		if err := os.WriteFile(ev, []byte(`{"eventName":"turn.completed","session":{"id":"s"},"turn":{"id":"t`+strconv.Itoa(i)+`"}}`), 0o600); err != nil {
			t.Fatal(err)
		}
		code, out, errs := runCLI("v2", "emit", "--home", home, "--file", ev, "--wait", "0", "--json")
		var got emitOutput
		if err := json.Unmarshal([]byte(out), &got); code != exitOK || err != nil || len(got.Runs) != 1 || len(got.Notes) != 1 {
			t.Fatalf("emit %d --wait 0: exit %d %v\n%s%s", i, code, err, out, errs)
		}
		r := got.Runs[0]
		if r.Status != "queued" || r.AttemptCount != 0 || r.LeftQueued == nil || r.LeftQueued.Reason != "not_waited" || !strings.HasPrefix(got.Notes[0], "--wait 0: 1 run(s) were left queued") {
			t.Errorf("emit %d --wait 0: run %+v, notes %q", i, r, got.Notes)
		}
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("--wait 0 ran a command action")
	}
}

// TestV2WorkspaceBindingAtAPath: a workspace binding whose --scope-id is a
// bare path is made, with a warning naming the local:PATH form hosts send;
// an event whose workspace is local:PATH then names that binding as the
// near miss (unbound[].hint and the text) instead of only "no binding".
func TestV2WorkspaceBindingAtAPath(t *testing.T) {
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	ws := filepath.Join(dir, "ws")
	files := map[string]string{
		"def.json": `{"id":"n","name":"n","eventName":"turn.completed","action":{"type":"command","hook":{"type":"process","command":"true"}}}`,
		"ev.json":  `{"eventName":"turn.completed","session":{"id":"s"},"turn":{"id":"t"},"workspaces":[{"id":` + strconv.Quote("local:"+ws) + `,"name":"ws"}],"primaryWorkspaceId":` + strconv.Quote("local:"+ws) + `}`,
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if code, out, errs := runCLI("v2", "definitions", "create", "--home", home, "--file", filepath.Join(dir, "def.json")); code != exitOK {
		t.Fatalf("definitions create: exit %d\n%s%s", code, out, errs)
	}
	code, out, errs := runCLI("v2", "bindings", "create", "--home", home, "--hook", "n", "--scope", "workspace", "--scope-id", ws)
	if code != exitOK || !strings.Contains(errs, `warning: --scope-id: "`+ws+`" is a path`) || !strings.Contains(errs, `did you mean "local:`+ws+`"?`) {
		t.Fatalf("bindings create at a path: exit %d\n%s%s", code, out, errs)
	}
	code, out, errs = runCLI("v2", "emit", "--home", home, "--file", filepath.Join(dir, "ev.json"), "--json")
	var got emitOutput
	if err := json.Unmarshal([]byte(out), &got); code != exitOK || err != nil || len(got.Unbound) != 1 ||
		!strings.Contains(got.Unbound[0].Hint, `is at workspace "`+ws+`", this event's workspace is "local:`+ws+`"`) {
		t.Fatalf("emit: exit %d %v\n%s%s", code, err, out, errs)
	}
	if _, out, _ := runCLI("v2", "emit", "--home", home, "--file", filepath.Join(dir, "ev.json")); !strings.Contains(out, "scope ids are compared exactly") {
		t.Errorf("emit text does not name the near miss:\n%s", out)
	}
}
