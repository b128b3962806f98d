package rpc

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookside/hookside/runner"
)

// TestReviewGoneSaysWhich: a review id that cannot be submitted says why —
// expired (also after it was swept by a later add), already used, or
// unknown — and the -32010 message names that case.
func TestReviewGoneSaysWhich(t *testing.T) {
	var rs reviewSet
	now := time.Now()
	rs.add(&review{id: "rev_a", expires: now.Add(ReviewTTL)}, now)
	rs.add(&review{id: "rev_b", expires: now.Add(ReviewTTL)}, now)
	rs.add(&review{id: "rev_c", expires: now.Add(ReviewTTL)}, now)
	if r, why := rs.get("rev_a", now); r == nil || why != "" {
		t.Fatalf("open review: %v %q", r, why)
	}
	rs.use("rev_a")
	later := now.Add(ReviewTTL + time.Second)
	rs.add(&review{id: "rev_d", expires: later.Add(ReviewTTL)}, later) // sweeps rev_c
	for id, want := range map[string]string{"rev_a": "used", "rev_b": "expired", "rev_c": "expired", "rev_x": "unknown"} {
		if r, why := rs.get(id, later); r != nil || why != want {
			t.Errorf("%s: %v %q, want %q", id, r, why, want)
		}
	}
	for why, msg := range map[string]string{
		"expired": `review "r" expired (a review lasts 10 minutes): start a new review`,
		"used":    `review "r" was already submitted (a review is single-use): start a new review`,
		"unknown": `review "r" is unknown on this connection: start a new review`,
	} {
		if e := reviewGone("r", why); e.Code != CodeReviewExpired || e.Message != msg {
			t.Errorf("%s: %d %q, want %q", why, e.Code, e.Message, msg)
		}
	}
	// Gone ids are forgotten after goneTTL.
	much := later.Add(goneTTL + time.Second)
	rs.add(&review{id: "rev_e", expires: much.Add(ReviewTTL)}, much)
	if _, why := rs.get("rev_a", much); why != "unknown" {
		t.Errorf("after goneTTL: %q", why)
	}
}

// TestReviewRunDir: review/start's runCwd is checked before a review
// starts: "" is the session directory, a subdirectory of a claude-profile
// session's workspace is its run directory, and a relative path, a
// missing directory, one outside the workspace or a session of another
// profile are -32602 on runCwd, each saying why.
func TestReviewRunDir(t *testing.T) {
	dir := t.TempDir()
	ws := filepath.Join(dir, "ws")
	if err := os.MkdirAll(filepath.Join(ws, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	ws, _ = filepath.EvalSymlinks(ws)
	open := func(profile string) *runner.Session {
		rs, _, err := runner.Open(runner.SessionOptions{ID: "s", Cwd: ws, Profile: profile, UserDir: filepath.Join(dir, "claude"),
			UserConfigPath: filepath.Join(dir, "config.json")})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(rs.Close)
		return rs
	}
	rs := open(runner.ProfileClaude)
	if d, err := reviewRunDir(rs, ""); d != "" || err != nil {
		t.Errorf(`runCwd "": %q %v`, d, err)
	}
	if d, err := reviewRunDir(rs, filepath.Join(ws, "sub")); d != filepath.Join(ws, "sub") || err != nil {
		t.Errorf("runCwd sub: %q %v", d, err)
	}
	for runCwd, want := range map[string]string{
		"sub":                     "must be an absolute path",
		filepath.Join(ws, "gone"): "is not an existing directory",
		dir:                       "is not inside the workspace",
	} {
		_, err := reviewRunDir(rs, runCwd)
		if e, ok := err.(*Error); !ok || e.Code != CodeInvalidParams || !strings.Contains(e.Message, "runCwd: ") || !strings.Contains(e.Message, want) {
			t.Errorf("runCwd %s: %v, want -32602 saying %q", runCwd, err, want)
		}
	}
	if _, err := reviewRunDir(open(runner.ProfileZcode), filepath.Join(ws, "sub")); err == nil || !strings.Contains(err.Error(), "claude-profile") {
		t.Errorf("zcode session: %v", err)
	}
}
