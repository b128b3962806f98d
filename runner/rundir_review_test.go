package runner

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/truststore"
)

// TestReviewAtRunDir: a claude-profile run whose cwd is a subdirectory
// holding its own script is stale under a grant made at the project
// directory, and its trustNotice names the review at that directory
// (--run-cwd). WorkspaceStatusAt reviews there: the state a run there
// gets, the pins resolved there; granting that Show adds the site's set,
// so runs in the subdirectory and in the project directory both run.
func TestReviewAtRunDir(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the hooks are POSIX shell scripts")
	}
	e := newClaudeEnv(t)
	var err error
	if e.cwd, err = filepath.EvalSymlinks(e.cwd); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(e.cwd, "sub")
	marker := filepath.Join(e.dir, "ran")
	writeJSON(t, filepath.Join(e.cwd, ".claude/settings.json"), handlers(hook.PreToolUse, "Bash", sh("bash .claude/hooks/g.sh")))
	writeFileAll(t, filepath.Join(e.cwd, ".claude/hooks/g.sh"), "cat >/dev/null\necho proj >> "+marker+"\n")
	writeFileAll(t, filepath.Join(sub, ".claude/hooks/g.sh"), "cat >/dev/null\necho sub >> "+marker+"\n")
	s := e.open(t, SessionOptions{})
	trustAll(t, s)
	input := func(cwd string) string {
		return `{"tool_name":"Bash","tool_input":{"command":"ls"},"cwd":"` + cwd + `"}`
	}

	m := runClaude(t, s, hook.PreToolUse, input(sub))
	if got := claudeOutcomes(m); got != "skipped(stale_digest)" {
		t.Fatalf("run in sub before its review: %s", got)
	}
	n := m.TrustNotice
	if n == nil || !strings.HasSuffix(n.ReviewCommand, " --workspace "+e.cwd+" --run-cwd "+sub) ||
		!strings.Contains(n.Message, "review them where they run: "+n.ReviewCommand) {
		t.Fatalf("trustNotice %+v: want the review at --run-cwd %s, in the message too", n, sub)
	}
	if d := s.RunReviewCwd(sub); d != sub {
		t.Errorf("RunReviewCwd(sub) = %q", d)
	}
	for _, d := range []string{e.cwd, "sub", e.dir, filepath.Join(e.cwd, "gone")} {
		if got := s.RunReviewCwd(d); got != "" {
			t.Errorf("RunReviewCwd(%s) = %q, want none", d, got)
		}
	}

	dir, err := s.RunDir(sub)
	if err != nil || dir != sub {
		t.Fatalf("RunDir(sub) = %q, %v", dir, err)
	}
	st := s.WorkspaceStatusAt(dir)
	if st.RunDir != sub || st.Workspace.Site.Dir != sub || st.Workspace.Site.ProjectDir != e.cwd {
		t.Fatalf("site %+v (run dir %q), want Dir sub, ProjectDir the session's", st.Workspace.Site, st.RunDir)
	}
	if ev := st.Evaluations[0]; ev.State != truststore.StaleDigest || ev.Reason != truststore.ReasonScriptChanged || st.Counts[string(truststore.StaleDigest)] != 1 {
		t.Fatalf("state at sub %+v, counts %v", ev, st.Counts)
	}
	if s.WorkspaceStatus().Evaluations[0].State != truststore.TrustedPersistent {
		t.Fatal("the session directory's state is not trusted")
	}
	sh := truststore.Show(st.Workspace)
	if p, err := sh.PinsOf(st.Declarations[0].Digest); err != nil || !slices.Contains(p.Paths(), "sub/.claude/hooks/g.sh") {
		t.Fatalf("pins at sub %v, %v", p.Paths(), err)
	}
	if sh.BundleDigest != st.Workspace.BundleDigest || sh.BundleDigest == s.WorkspaceStatus().Workspace.BundleDigest {
		t.Error("the bundle digest at sub is not the one shown there")
	}
	if err := truststore.GrantShown(s.Gate(), s.Options().WorkspaceID, sh, st.Declarations); err != nil {
		t.Fatal(err)
	}
	for _, cwd := range []string{sub, e.cwd} {
		if got := claudeOutcomes(runClaude(t, s, hook.PreToolUse, input(cwd))); got != "succeeded" {
			t.Errorf("run in %s after the review at sub: %s", cwd, got)
		}
	}
	if b, _ := os.ReadFile(marker); string(b) != "sub\nproj\n" {
		t.Errorf("ran %q, want sub then proj", b)
	}
	if s.WorkspaceStatusAt(dir).Evaluations[0].State != truststore.TrustedPersistent {
		t.Error("not trusted at sub after its grant")
	}
	// Outside the workspace no review can help: none is offered there.
	m = runClaude(t, s, hook.PreToolUse, input(e.dir))
	if n := m.TrustNotice; n == nil || strings.Contains(n.ReviewCommand, "--run-cwd") || !strings.Contains(n.Message, "is outside the workspace: no grant covers") {
		t.Errorf("run outside the workspace: trustNotice %+v", n)
	}
}

// TestRunDirErrors: a run directory outside the workspace, one that does
// not exist, or one asked of a session that is not claude-profile is
// refused, each with its own error.
func TestRunDirErrors(t *testing.T) {
	e := newClaudeEnv(t)
	s := e.open(t, SessionOptions{})
	if _, err := s.RunDir(e.dir); !errors.Is(err, ErrRunDirOutside) {
		t.Errorf("outside: %v", err)
	}
	if _, err := s.RunDir(filepath.Join(e.cwd, "gone")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing: %v", err)
	}
	z, _ := NewSession(SessionOptions{ID: "z", Cwd: e.cwd})
	defer z.Close()
	if _, err := z.RunDir(e.cwd); !errors.Is(err, ErrRunDirProfile) {
		t.Errorf("zcode: %v", err)
	}
	if st := s.WorkspaceStatusAt(""); st.RunDir != "" || st.Workspace.Site.Dir != s.WorkspaceStatus().Workspace.Site.Dir {
		t.Errorf("WorkspaceStatusAt(\"\") is not the session's: %+v", st.Workspace.Site)
	}
}
