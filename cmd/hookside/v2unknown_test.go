package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestV2DefinitionUnknownMembersCLI runs the binary: a definition with a
// misspelt member is accepted by validate (exit 0, the warning with its
// file:line:col, nothing stored, no database made), by create, upsert and
// update, each printing "warning: PATH: MESSAGE (FILE:LINE:COL)" on stderr
// and carrying the warning under --json; an invalid definition makes
// validate exit 2 with its problems; a clean one warns of nothing.
func TestV2DefinitionUnknownMembersCLI(t *testing.T) {
	e := newCLIEnv(t)
	write := fileWriter(t)
	typo := write("typo.json", `{"id":"tool","name":"Tool","eventName":"turn.completed",
"action":{"type":"tool","target":{"sourceKind":"connector","sourceId":"x","toolName":"t","versoin":"1.2"}}}`)
	const msg = `action.target.versoin: unknown member "versoin" is ignored; did you mean "version"?`
	at := " (" + typo + ":2:100)"

	code, out, errs := e.hookside(t, "", "v2", "definitions", "validate", "--file", typo)
	if code != 0 || out != "warning: "+msg+at+"\nvalid\n" || errs != "" {
		t.Errorf("validate: exit %d\n%s%s", code, out, errs)
	}
	if _, err := os.Stat(filepath.Join(e.home, "hookside.db")); !os.IsNotExist(err) {
		t.Errorf("validate made a database: %v", err)
	}
	var v struct {
		Valid    bool
		Problems []struct{ Path, Code, Severity, At string }
	}
	code, out, _ = e.hookside(t, "", "v2", "definitions", "validate", "--file", typo, "--json")
	if err := json.Unmarshal([]byte(out), &v); err != nil || code != 0 || !v.Valid || len(v.Problems) != 1 ||
		v.Problems[0].Code != "unknown_member" || v.Problems[0].At != typo+":2:100" {
		t.Errorf("validate --json: exit %d %+v %v\n%s", code, v, err, out)
	}

	for _, args := range [][]string{
		{"create", "--file", typo},
		{"upsert", "--file", typo},
		{"update", "tool", "--file", write("patch.json", `{"retryPolicy":{"maxAttempt":2}}`)},
	} {
		want := "hookside v2 definitions " + args[0] + ": warning: " + msg + at + "\n"
		if args[0] == "update" {
			want = "hookside v2 definitions update: warning: retryPolicy.maxAttempt: unknown member \"maxAttempt\" is ignored; did you mean \"maxAttempts\"? (" + args[3] + ":1:30)\n"
		}
		code, out, errs := e.hookside(t, "", append([]string{"v2", "definitions"}, args...)...)
		if code != 0 || errs != want {
			t.Errorf("%s: exit %d\nstdout %s\nstderr %q\nwant   %q", args[0], code, out, errs, want)
		}
	}
	var up struct {
		Outcome  string
		Warnings []struct{ Path, Code, Message, Severity string }
	}
	code, out, errs = e.hookside(t, "", "v2", "definitions", "upsert", "--file", typo, "--json")
	if err := json.Unmarshal([]byte(out), &up); err != nil || code != 0 || up.Outcome != "unchanged" || len(up.Warnings) != 1 ||
		up.Warnings[0].Path != "action.target.versoin" || up.Warnings[0].Severity != "warning" || !strings.Contains(errs, "warning: "+msg) {
		t.Errorf("upsert --json: exit %d %+v %v\n%s%s", code, up, err, out, errs)
	}

	bad := write("bad.json", `{"name":"x","eventName":"turn.completed","action":{"type":"sound"},
"condition":{"op":"eq","left":{"path":"turn.id"},"rigth":{"const":"a"}}}`)
	code, out, _ = e.hookside(t, "", "v2", "definitions", "validate", "--file", bad)
	if code != exitUsage || !strings.Contains(out, "error: condition.right: ") ||
		!strings.Contains(out, `warning: condition.rigth: unknown member "rigth" is ignored; did you mean "right"?`) || !strings.HasSuffix(out, "invalid\n") {
		t.Errorf("validate invalid: exit %d\n%s", code, out)
	}

	clean := write("clean.json", `{"id":"snd","name":"Sound","eventName":"turn.completed","action":{"type":"sound"}}`)
	for _, op := range []string{"validate", "create"} {
		if code, out, errs := e.hookside(t, "", "v2", "definitions", op, "--file", clean); code != 0 || errs != "" || strings.Contains(out, "warning") {
			t.Errorf("%s clean: exit %d\n%s%s", op, code, out, errs)
		}
	}
}
