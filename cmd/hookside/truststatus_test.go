package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestTrustStatusNamesBrokenWorkspaceFile: a workspace file that cannot be
// loaded is named by hooks trust status and review — its diagnostic on
// stderr, "could not be read" in place of "no workspace hook declarations",
// the diagnostics in --json — where they said only that nothing was
// declared.
func TestTrustStatusNamesBrokenWorkspaceFile(t *testing.T) {
	e := newCLIEnv(t)
	writeFiles(t, map[string]string{
		filepath.Join(e.home, "config.json"): `{"hooks":{"enabled":true}}`,
		filepath.Join(e.ws, "zcode.json"):    `{"hooks":{"events":{"Stop":[{"hooks":[{"type":"command","command":"true"},]}]}}}`,
	})
	for _, action := range []string{"status", "review"} {
		code, out, errs := e.hookside(t, "", "hooks", "trust", action, "--workspace", e.ws)
		if code != exitOK || !strings.Contains(out, "no workspace hook declarations loaded: 1 workspace configuration file(s) could not be read (see the errors above)") ||
			strings.Contains(out, "nothing to review") || !strings.Contains(errs, "zcode.json:1:74: error: invalid JSON") {
			t.Errorf("hooks trust %s: exit %d\nstdout %q\nstderr %q", action, code, out, errs)
		}
	}
	code, out, _ := e.hookside(t, "", "hooks", "trust", "status", "--workspace", e.ws, "--json")
	var st struct {
		Declarations []any `json:"declarations"`
		Diagnostics  []struct{ Code, Source string }
	}
	if err := json.Unmarshal([]byte(out), &st); code != exitOK || err != nil || len(st.Declarations) != 0 || len(st.Diagnostics) != 1 ||
		st.Diagnostics[0].Code != "config_parse_error" || !strings.HasSuffix(st.Diagnostics[0].Source, "zcode.json:1:74") {
		t.Errorf("--json: exit %d, %v, %+v: %s", code, err, st, out)
	}
	// A workspace whose files load has diagnostics [] in --json.
	writeFiles(t, map[string]string{filepath.Join(e.ws, "zcode.json"): `{"hooks":{"events":{"Stop":[{"hooks":[{"type":"command","command":"true"}]}]}}}`})
	_, out, _ = e.hookside(t, "", "hooks", "trust", "status", "--workspace", e.ws, "--json")
	if !strings.Contains(out, `"diagnostics": []`) {
		t.Errorf("--json of a loading workspace: want \"diagnostics\": [], got %s", out)
	}
}
