package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// v2cli runs `hookside v2 …` in-process on home and decodes --json stdout
// into out (when not nil).
func v2cli(t *testing.T, home string, out any, args ...string) (int, string) {
	t.Helper()
	code, stdout, stderr := runCLI(append(append([]string{"v2"}, args...), "--home", home)...)
	if out != nil {
		if err := json.Unmarshal([]byte(stdout), out); err != nil {
			t.Fatalf("v2 %v: %v\n%s%s", args, err, stdout, stderr)
		}
	}
	return code, stderr
}

// fileWriter returns a function that writes body to name in a fresh temp
// directory and returns its path.
func fileWriter(t *testing.T) func(name, body string) string {
	dir := t.TempDir()
	return func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
}

type wireErr struct {
	Error struct {
		Code    int64
		Message string
		Data    map[string]any
	}
}

// TestV2DefinitionsAndBindingsCLI walks a definition and its binding
// through every action, with the v2/* results as --json and the
// protocol's error codes and exit statuses on failures.
func TestV2DefinitionsAndBindingsCLI(t *testing.T) {
	home := t.TempDir()
	write := fileWriter(t)
	def := write("def.json", `{"id":"note","name":"Notify","eventName":"turn.completed","action":{"type":"command","hook":{"type":"command","command":"echo hi"}}}`)

	var created struct {
		Definition struct {
			ID, ExecutionHash string
			Revision          int
		}
	}
	if code, errs := v2cli(t, home, &created, "definitions", "create", "--file", def, "--json"); code != 0 || created.Definition.ID != "note" || created.Definition.Revision != 1 {
		t.Fatalf("create: exit %d %+v %s", code, created, errs)
	}
	var e wireErr
	if code, errs := v2cli(t, home, &e, "definitions", "create", "--file", def, "--json"); code != exitError || e.Error.Code != -32016 || !strings.Contains(errs, "[code -32016]") {
		t.Errorf("duplicate create: exit %d %+v %s", code, e, errs)
	}
	bad := write("bad.json", `{"name":"x","eventName":"turn.completed","action":{"type":"bogus"}}`)
	e = wireErr{}
	if code, errs := v2cli(t, home, &e, "definitions", "create", "--file", bad, "--json"); code != exitUsage || e.Error.Code != -32602 || e.Error.Data["field"] != "definition.action.type" {
		t.Errorf("invalid create: exit %d %+v %s", code, e, errs)
	}
	if code, errs := v2cli(t, home, nil, "definitions", "create", "--file", write("nojson.json", "nope")); code != exitUsage || !strings.Contains(errs, "nojson.json:1:2: invalid JSON") {
		t.Errorf("not JSON: exit %d %s", code, errs)
	}
	var list struct{ Definitions []struct{ ID string } }
	if code, _ := v2cli(t, home, &list, "definitions", "list", "--event", "turn.completed", "--json"); code != 0 || len(list.Definitions) != 1 {
		t.Errorf("list: %d %+v", code, list)
	}
	if code, errs := v2cli(t, home, nil, "definitions", "list", "--event", "no.such"); code != exitUsage || !strings.Contains(errs, "[code -32602]") {
		t.Errorf("list unknown event: exit %d %s", code, errs)
	}

	var bd struct {
		ID, State  string
		Enabled    bool
		ShadowedBy []string
	}
	if code, errs := v2cli(t, home, &bd, "bindings", "create", "--hook", "note", "--scope", "application", "--json"); code != 0 || bd.State != "active" || !bd.Enabled {
		t.Fatalf("binding create: exit %d %+v %s", code, bd, errs)
	}
	if code, errs := v2cli(t, home, nil, "bindings", "create", "--hook", "note", "--scope", "session"); code != exitUsage || !strings.Contains(errs, "invalid params: --scope-id: required for scope session") {
		t.Errorf("session binding without --scope-id: exit %d %s", code, errs)
	}
	if code, errs := v2cli(t, home, nil, "bindings", "create", "--hook", "ghost", "--scope", "application"); code != exitNotFound || !strings.Contains(errs, "[code -32013]") {
		t.Errorf("binding of an unknown definition: exit %d %s", code, errs)
	}

	// An executing change drops the binding's trust until re-authorized.
	patch := write("patch.json", `{"action":{"type":"command","hook":{"type":"command","command":"echo bye"}}}`)
	var upd struct {
		Definition struct {
			ExecutionHash string
			Revision      int
		}
		BindingsNeedingReview int
	}
	if code, errs := v2cli(t, home, &upd, "definitions", "update", "note", "--file", patch, "--json"); code != 0 || upd.Definition.Revision != 2 || upd.BindingsNeedingReview != 1 {
		t.Fatalf("update: exit %d %+v %s", code, upd, errs)
	}
	var got struct{ Binding struct{ State string } }
	if code, _ := v2cli(t, home, &got, "bindings", "get", bd.ID, "--json"); code != 0 || got.Binding.State != "needs_review" {
		t.Errorf("binding after the change: %d %+v", code, got)
	}
	if code, errs := v2cli(t, home, nil, "bindings", "update", bd.ID); code != exitUsage || !strings.Contains(errs, "--enabled") {
		t.Errorf("update with nothing to change: exit %d %s", code, errs)
	}
	var re struct {
		State   string
		Enabled bool
	}
	if code, errs := v2cli(t, home, &re, "bindings", "update", bd.ID, "--authorize", upd.Definition.ExecutionHash, "--json"); code != 0 || re.State != "active" || !re.Enabled {
		t.Errorf("re-authorize: exit %d %+v %s", code, re, errs)
	}
	if code, errs := v2cli(t, home, &re, "bindings", "update", bd.ID, "--enabled=false", "--json"); code != 0 || re.State != "disabled" || re.Enabled {
		t.Errorf("disable: exit %d %+v %s", code, re, errs)
	}
	var bl struct{ Bindings []struct{ ID string } }
	if code, _ := v2cli(t, home, &bl, "bindings", "list", "--hook", "note", "--json"); code != 0 || len(bl.Bindings) != 1 || bl.Bindings[0].ID != bd.ID {
		t.Errorf("bindings list: %d %+v", code, bl)
	}
	if code, _ := v2cli(t, home, nil, "bindings", "delete", bd.ID); code != 0 {
		t.Errorf("binding delete: %d", code)
	}
	if code, errs := v2cli(t, home, nil, "bindings", "get", bd.ID); code != exitNotFound || !strings.Contains(errs, "not found") {
		t.Errorf("deleted binding get: exit %d %s", code, errs)
	}
	var del struct{ BindingsDeleted, RunsRetained int }
	if code, _ := v2cli(t, home, &del, "definitions", "delete", "note", "--json"); code != 0 {
		t.Errorf("definition delete: %d", code)
	}
	e = wireErr{}
	if code, _ := v2cli(t, home, &e, "definitions", "get", "note", "--json"); code != exitNotFound || e.Error.Code != -32013 {
		t.Errorf("deleted definition get: exit %d %+v", code, e)
	}
	if code, errs := v2cli(t, home, nil, "definitions", "get"); code != exitUsage || !strings.Contains(errs, "want exactly one definition id") {
		t.Errorf("get without id: exit %d %s", code, errs)
	}
	// Text output names what to do next.
	if code, out, _ := runCLI("v2", "definitions", "create", "--file", def, "--home", home); code != 0 || !strings.Contains(out, "hookside v2 bindings create --hook note") {
		t.Errorf("text create: %d %s", code, out)
	}
}

// TestV2OutputIsNotHTMLEscaped: `v2 definitions get` (text and --json)
// and a run's summaries in `v2 runs get` show <, > and & as themselves,
// also inside the stored action JSON.
func TestV2OutputIsNotHTMLEscaped(t *testing.T) {
	home := t.TempDir()
	def := fileWriter(t)("def.json", `{"id":"esc","name":"e<&>","eventName":"turn.completed","inputMapping":{"m":{"template":"<${payload.message}>"}},`+
		`"action":{"type":"command","hook":{"type":"command","command":"cat > /dev/null && true"}}}`)
	if code, errs := v2cli(t, home, nil, "definitions", "create", "--file", def); code != 0 {
		t.Fatalf("create: exit %d %s", code, errs)
	}
	for _, args := range [][]string{{"definitions", "get", "esc"}, {"definitions", "get", "esc", "--json"}} {
		_, out, errs := runCLI(append(append([]string{"v2"}, args...), "--home", home)...)
		if !strings.Contains(out, `cat > /dev/null && true`) || strings.Contains(out, `\u00`) {
			t.Errorf("v2 %v:\n%s%s", args, out, errs)
		}
	}
	if code, _, errs := runCLI("v2", "bindings", "create", "--hook", "esc", "--scope", "application", "--home", home); code != 0 {
		t.Fatalf("bind: exit %d %s", code, errs)
	}
	ev := fileWriter(t)("ev.json", `{"eventName":"turn.completed","session":{"id":"s1"},"turn":{"id":"t1"},"payload":{"message":"m<&>"}}`)
	var emitted struct{ Runs []struct{ ID string } }
	if code, errs := v2cli(t, home, &emitted, "emit", "--file", ev, "--json"); code != 0 || len(emitted.Runs) != 1 {
		t.Fatalf("emit: exit %d %+v %s", code, emitted, errs)
	}
	for _, args := range [][]string{{"runs", "get", emitted.Runs[0].ID}, {"runs", "get", emitted.Runs[0].ID, "--json"}} {
		_, out, errs := runCLI(append(append([]string{"v2"}, args...), "--home", home)...)
		if !strings.Contains(out, `<m<&>>`) || strings.Contains(out, `\u00`) {
			t.Errorf("v2 %v:\n%s%s", args, out, errs)
		}
	}
}

// TestV2DefinitionsCreateReportsEveryProblem: a definition file with two
// problems prints both on stderr, each at its file:line:col, and --json
// gives each problem its "at"; a missing name is "required", not "got 0".
func TestV2DefinitionsCreateReportsEveryProblem(t *testing.T) {
	home := t.TempDir()
	bad := fileWriter(t)("bad.json", "{\"id\": \"bad\", \"name\": \"x\",\n \"eventName\": \"turn.completed\",\n \"timeoutMs\": \"fast\",\n"+
		" \"action\": {\"type\": \"notification\", \"title\": \"hi\"}\n}\n")
	code, errs := v2cli(t, home, nil, "definitions", "create", "--file", bad)
	for _, want := range []string{bad + ":4:46: error invalid_type: action.title", bad + ":3:15: error invalid_type: timeoutMs"} {
		if code != exitUsage || !strings.Contains(errs, want) {
			t.Errorf("exit %d, stderr lacks %q:\n%s", code, want, errs)
		}
	}
	var e struct {
		Error struct {
			Data struct {
				Details struct {
					Problems []struct{ Path, Code, At string }
				}
			}
		}
	}
	if code, _ := v2cli(t, home, &e, "definitions", "create", "--file", bad, "--json"); code != exitUsage || len(e.Error.Data.Details.Problems) != 2 {
		t.Fatalf("--json: exit %d %+v", code, e)
	}
	for _, p := range e.Error.Data.Details.Problems {
		if want := map[string]string{"action.title": bad + ":4:46", "timeoutMs": bad + ":3:15"}[p.Path]; p.At != want {
			t.Errorf("problem %s at %q, want %q", p.Path, p.At, want)
		}
	}
	noName := fileWriter(t)("noname.json", `{"eventName":"turn.completed","action":{"type":"sound"}}`)
	if code, errs := v2cli(t, home, nil, "definitions", "create", "--file", noName); code != exitUsage || !strings.Contains(errs, "required: name is required") || strings.Contains(errs, "got 0") {
		t.Errorf("no name: exit %d %s", code, errs)
	}
}

// TestV2RunsErrorsCarryTheirCode: `v2 runs get|retry|cancel` of an unknown
// run says "not found: run x [code -32013]" (exit 3; --json: the error
// object on stdout) and an unknown --status is [code -32602] (exit 2),
// without the store's wording.
func TestV2RunsErrorsCarryTheirCode(t *testing.T) {
	home := t.TempDir()
	def := fileWriter(t)("def.json", `{"id":"note","name":"N","eventName":"turn.completed","action":{"type":"sound"}}`)
	if code, errs := v2cli(t, home, nil, "definitions", "create", "--file", def); code != 0 {
		t.Fatalf("create: exit %d %s", code, errs)
	}
	for _, args := range [][]string{{"runs", "get", "x"}, {"runs", "retry", "x"}, {"runs", "cancel", "x"}} {
		if code, errs := v2cli(t, home, nil, args...); code != exitNotFound || !strings.Contains(errs, "not found: run x [code -32013]") || strings.Contains(errs, "store:") {
			t.Errorf("v2 %v: exit %d %s", args, code, errs)
		}
	}
	var e wireErr
	if code, _ := v2cli(t, home, &e, "runs", "get", "x", "--json"); code != exitNotFound || e.Error.Code != -32013 || e.Error.Message != "not found: run x" {
		t.Errorf("--json: exit %d %+v", code, e)
	}
	if code, errs := v2cli(t, home, nil, "runs", "list", "--status", "bogus"); code != exitUsage || !strings.Contains(errs, `unknown status "bogus"`) || !strings.Contains(errs, "[code -32602]") || strings.Contains(errs, "store:") {
		t.Errorf("--status bogus: exit %d %s", code, errs)
	}
}

// TestV2EmitWaitExpiredExits1: when --wait expires with a command run
// still running, emit cancels it (outcome_unknown), says so and exits 1;
// the event stays written.
func TestV2EmitWaitExpiredExits1(t *testing.T) {
	home := t.TempDir()
	write := fileWriter(t)
	def := write("slow.json", `{"id":"slow","name":"slow","eventName":"turn.completed","timeoutMs":60000,"action":{"type":"command","hook":{"type":"command","command":"sleep 30"}}}`)
	if code, errs := v2cli(t, home, nil, "definitions", "create", "--file", def); code != 0 {
		t.Fatalf("create: exit %d %s", code, errs)
	}
	if code, _, errs := runCLI("v2", "bindings", "create", "--hook", "slow", "--scope", "application", "--home", home); code != 0 {
		t.Fatalf("bind: exit %d %s", code, errs)
	}
	ev := write("ev.json", `{"eventName":"turn.completed","session":{"id":"s"},"turn":{"id":"w1"},"payload":{}}`)
	var out struct {
		Enqueued bool
		Runs     []struct{ Status string }
	}
	code, errs := v2cli(t, home, &out, "emit", "--file", ev, "--wait", "500ms", "--json")
	if code != exitError || !out.Enqueued || len(out.Runs) != 1 || out.Runs[0].Status != "outcome_unknown" || !strings.Contains(errs, "--wait expired") {
		t.Fatalf("exit %d %+v %s", code, out, errs)
	}
}
