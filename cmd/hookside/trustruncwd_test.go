package main

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// TestTrustRunCwd: a claude-profile `hooks run` whose input cwd is a
// subdirectory with its own script is stale under the project
// directory's grant, and its "Review them with" line reviews at that
// directory (--run-cwd). That review lists the hook stale there and
// prints grant commands keeping --run-cwd; a grant with a relative
// --run-cwd (from the process's directory) admits the run, its --json
// counts are those at the run directory, and the project directory
// stays trusted.
func TestTrustRunCwd(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the hooks are POSIX shell scripts")
	}
	e := newCLIEnv(t)
	ch, sub := filepath.Join(e.root, "claudehome"), filepath.Join(e.ws, "sub")
	in := filepath.Join(e.root, "in.json")
	writeFiles(t, map[string]string{
		filepath.Join(e.ws, ".claude", "settings.json"): `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"bash .claude/hooks/g.sh"}]}]}}`,
		filepath.Join(e.ws, ".claude/hooks/g.sh"):       "cat >/dev/null\n",
		filepath.Join(sub, ".claude/hooks/g.sh"):        "cat >/dev/null\necho sub\n",
		filepath.Join(ch, ".keep"):                      "",
		in:                                              `{"tool_name":"Bash","tool_input":{"command":"ls"},"cwd":"` + sub + `"}`,
	})
	claude := []string{"--profile", "claude", "--claude-home", ch}
	e.grantAll(t, claude...)
	run := append([]string{"hooks", "run", "--event", "PreToolUse", "--input", in}, claude...)
	code, _, errs := e.hookside(t, "", run...)
	if code != 0 || !strings.Contains(errs, "stale_digest") || !strings.Contains(errs, " --workspace "+e.ws+" --run-cwd "+sub+"\n") {
		t.Fatalf("run in sub before its review: exit %d, want a review at --run-cwd %s:\n%s", code, sub, errs)
	}
	review := append([]string{"hooks", "trust", "review", "--home", e.home, "--workspace", e.ws, "--run-cwd", sub}, claude...)
	code, out, errs := e.hookside(t, "", review...)
	m := regexp.MustCompile(`hooks trust grant .* --run-cwd \S+ --all --bundle-digest ([0-9a-f]{64})`).FindStringSubmatch(out)
	if code != 0 || !strings.Contains(out, "stale_digest (script_changed)") || !strings.Contains(out, "sub/.claude/hooks/g.sh sha256:") || m == nil {
		t.Fatalf("review at sub: exit %d %s %s", code, out, errs)
	}
	grant := append([]string{"hooks", "trust", "grant", "--home", e.home, "--run-cwd", "sub", "--all", "--bundle-digest", m[1], "--json"}, claude...)
	code, out, errs = e.hookside(t, "", grant...)
	var res struct {
		Counts map[string]int `json:"counts"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &res) != nil || res.Counts["trusted_persistent"] != 1 || len(res.Counts) != 1 {
		t.Fatalf("grant at sub: exit %d %s %s", code, out, errs)
	}
	if code, out, errs := e.hookside(t, "", run...); code != 0 || strings.Contains(errs, "Workspace Hooks skipped") || !strings.Contains(out, "succeeded") {
		t.Fatalf("run in sub after its grant: exit %d %s %s", code, out, errs)
	}
	if st := e.trustStatusJSON(t, claude...); st.Declarations[0].TrustState != "trusted_persistent" {
		t.Fatalf("project directory after the grant at sub: %+v", st.Declarations[0])
	}
}
