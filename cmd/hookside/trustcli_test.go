package main

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hookside/hookside/runner"
)

// trustCLIEnv is a workspace with two Stop declarations in a non-default
// home and an extra project config, driven through the binary.
func trustCLIEnv(t *testing.T) (cliEnv, string) {
	t.Helper()
	e := newCLIEnv(t)
	e.home = filepath.Join(e.root, "elsewhere")
	extra := filepath.Join(e.root, "extra.json")
	writeFiles(t, map[string]string{
		filepath.Join(e.home, "config.json"): `{"hooks":{"enabled":true}}`,
		filepath.Join(e.ws, "zcode.json"):    `{"hooks":{"events":{"Stop":[{"hooks":[{"type":"command","command":"true"},{"type":"command","command":"echo two"}]}]}}}`,
		extra:                                zcodeDecls(map[string]any{"type": "command", "command": "echo extra"}),
	})
	return e, extra
}

func (e cliEnv) trustStatusJSON(t *testing.T, extra ...string) trustStatus {
	t.Helper()
	args := []string{"hooks", "trust", "status", "--json"}
	if !slices.Contains(extra, "--home") { // a flag is given once
		args = append(args, "--home", e.home)
	}
	code, out, errs := e.hookside(t, "", append(args, extra...)...)
	var st trustStatus
	if code != 0 || json.Unmarshal([]byte(out), &st) != nil {
		t.Fatalf("status: %d %s %s", code, out, errs)
	}
	return st
}

// grantAll grants everything `hooks trust status` lists with extra
// (grant --all --bundle-digest, extra after it), failing the test when
// status or the grant fails.
func (e cliEnv) grantAll(t *testing.T, extra ...string) {
	t.Helper()
	st := e.trustStatusJSON(t, extra...)
	if code, out, errs := e.hookside(t, "", append([]string{"hooks", "trust", "grant", "--all", "--bundle-digest", st.BundleDigest}, extra...)...); code != 0 {
		t.Fatalf("grant %v: %d %s%s", extra, code, out, errs)
	}
}

// TestTrustHintsRepeatFlags: the grant commands `hooks trust review`
// prints carry --home, --profile, --project-config, --policy and
// --workspace as given, and pasted as printed they grant.
func TestTrustHintsRepeatFlags(t *testing.T) {
	e, extra := trustCLIEnv(t)
	code, out, errs := e.hookside(t, "", "hooks", "trust", "review", "--home", e.home, "--profile", "zcode",
		"--project-config", extra, "--policy", "user_decides")
	if code != 0 {
		t.Fatalf("review: %d %s %s", code, out, errs)
	}
	var grantAll string
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, "--all --bundle-digest") {
			grantAll = strings.TrimSpace(line)
		}
	}
	for _, want := range []string{"--home " + e.home, "--profile zcode", "--project-config " + extra, "--policy user_decides", "--workspace " + e.ws} {
		if !strings.Contains(grantAll, want) {
			t.Errorf("hint %q lacks %q", grantAll, want)
		}
	}
	args := strings.Fields(grantAll)
	if len(args) < 2 || args[0] != "hookside" {
		t.Fatalf("hint %q", grantAll)
	}
	if code, out, errs := e.hookside(t, "", args[1:]...); code != 0 || strings.Count(out, "trusted ") != 3 {
		t.Fatalf("pasted hint: %d %s %s", code, out, errs)
	}
}

// TestTrustDigestNumbersAndPrefixes: grant and revoke take a list number
// (grant: with --bundle-digest, the numbers' meaning following the
// workspace) or a unique digest prefix; a short or unknown one is a clear
// error, and
// revoking a digest with no record exits 1.
func TestTrustDigestNumbersAndPrefixes(t *testing.T) {
	e, _ := trustCLIEnv(t)
	st := e.trustStatusJSON(t)
	if len(st.Declarations) != 2 {
		t.Fatalf("declarations %+v", st.Declarations)
	}
	d1, d2 := st.Declarations[0].Digest, st.Declarations[1].Digest
	if code, _, errs := e.hookside(t, "", "hooks", "trust", "grant", "--home", e.home, "--digest", "2"); code != exitUsage || !strings.Contains(errs, "a list number needs the --bundle-digest B") || strings.Contains(errs, st.BundleDigest) {
		t.Fatalf("grant 2 without --bundle-digest: exit %d %s; want a usage error naming the bundle digest", code, errs)
	}
	code, out, errs := e.hookside(t, "", "hooks", "trust", "grant", "--home", e.home, "--digest", "2", "--bundle-digest", st.BundleDigest)
	if code != 0 || strings.TrimSpace(out) != "trusted "+d2 {
		t.Fatalf("grant 2: %d %s %s", code, out, errs)
	}
	code, out, errs = e.hookside(t, "", "hooks", "trust", "grant", "--home", e.home, "--digest", d1[:8])
	if code != 0 || strings.TrimSpace(out) != "trusted "+d1 {
		t.Fatalf("grant prefix: %d %s %s", code, out, errs)
	}
	// Well-formed but naming nothing: exit 1; none of the forms: usage, exit 2.
	for bad, want := range map[string]int{"3": exitError, "0": exitError, "ffffff0000": exitError, "abc": exitUsage, "zzzzzzzz": exitUsage} {
		if code, _, errs := e.hookside(t, "", "hooks", "trust", "grant", "--home", e.home, "--digest", bad); code != want || !strings.Contains(errs, "--digest") {
			t.Errorf("grant --digest %s: %d (want %d) %s", bad, code, want, errs)
		}
	}
	code, out, errs = e.hookside(t, "", "hooks", "trust", "revoke", "--home", e.home, "--digest", d2[:10])
	if code != 0 || !strings.Contains(out, "revoked "+d2) {
		t.Fatalf("revoke prefix: %d %s %s", code, out, errs)
	}
	if code, out, _ := e.hookside(t, "", "hooks", "trust", "revoke", "--home", e.home, "--digest", d2); code != exitError || !strings.Contains(out, "no trust record") {
		t.Fatalf("revoke again: %d %s", code, out)
	}
}

// TestResolveDigestAmbiguous: a prefix two digests start is refused with
// both named.
func TestResolveDigestAmbiguous(t *testing.T) {
	a, b := "abcdef"+strings.Repeat("1", 58), "abcdef"+strings.Repeat("2", 58)
	_, err := resolveDigests([]string{"abcdef"}, []string{a}, []string{b}, false)
	if err == nil || !strings.Contains(err.Error(), "ambiguous") || !strings.Contains(err.Error(), a) || !strings.Contains(err.Error(), b) {
		t.Fatalf("err %v", err)
	}
	if got, err := resolveDigests([]string{"abcdef2", "1"}, []string{a}, []string{b}, false); err != nil || got[0] != b || got[1] != a {
		t.Fatalf("got %v %v", got, err)
	}
}

// TestHooksListTrustState: `hooks list` shows each workspace hook's trust
// state (text and --json); user hooks carry none.
func TestHooksListTrustState(t *testing.T) {
	e, _ := trustCLIEnv(t)
	writeFiles(t, map[string]string{filepath.Join(e.home, "config.json"): `{"hooks":{"enabled":true,"events":{"Stop":[{"hooks":[{"type":"command","command":"echo user"}]}]}}}`})
	d1 := e.trustStatusJSON(t).Declarations[0].Digest
	if code, _, errs := e.hookside(t, "", "hooks", "trust", "grant", "--home", e.home, "--digest", d1); code != 0 {
		t.Fatal(errs)
	}
	code, out, errs := e.hookside(t, "", "hooks", "list", "--home", e.home, "--json")
	var res struct {
		Hooks []struct {
			Command     string
			Source      struct{ Kind string }
			TrustState  *string
			TrustReason string
		}
	}
	if code != 0 || json.Unmarshal([]byte(out), &res) != nil {
		t.Fatalf("list: %d %s %s", code, out, errs)
	}
	got := map[string]string{}
	for _, h := range res.Hooks {
		st := "<none>"
		if h.TrustState != nil {
			st = *h.TrustState
		}
		got[h.Source.Kind+" "+h.Command] = st
	}
	want := map[string]string{"user echo user": "<none>", "workspace true": "trusted_persistent", "workspace echo two": "pending_trust"}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: trustState %s, want %s (all %v)", k, got[k], v, got)
		}
	}
	_, out, _ = e.hookside(t, "", "hooks", "list", "--home", e.home)
	if !strings.Contains(out, "trust=trusted_persistent") || !strings.Contains(out, "trust=pending_trust") {
		t.Errorf("text list lacks trust states:\n%s", out)
	}
}

// TestStaleGuardNoticeInReply: a trusted PreToolUse guard whose script is
// edited goes stale and is skipped; the hooks/run result (hooks run --json)
// carries a trustNotice naming it, its state and the review to run (with
// the home in use).
func TestStaleGuardNoticeInReply(t *testing.T) {
	e := newCLIEnv(t)
	script := filepath.Join(e.ws, "guard.sh")
	writeFiles(t, map[string]string{
		filepath.Join(e.home, "config.json"): `{"hooks":{"enabled":true}}`,
		filepath.Join(e.ws, "zcode.json"):    zcodeDecls(map[string]any{"type": "process", "command": script}),
		script:                               "#!/bin/sh\nexit 0\n",
	})
	st := e.trustStatusJSON(t)
	if code, _, errs := e.hookside(t, "", "hooks", "trust", "grant", "--home", e.home, "--all", "--bundle-digest", st.BundleDigest); code != 0 {
		t.Fatal(errs)
	}
	in := `{"toolName":"Bash","toolInput":{"command":"ls"}}`
	run := func() map[string]any {
		_, out, errs := e.hookside(t, in, "hooks", "run", "--event", "PreToolUse", "--input", "-", "--json", "--home", e.home)
		var m map[string]any
		if err := json.Unmarshal([]byte(out), &m); err != nil {
			t.Fatal(err, out, errs)
		}
		return m
	}
	if m := run(); m["trustNotice"] != nil {
		t.Fatalf("trusted guard: notice %v", m["trustNotice"])
	}
	writeFiles(t, map[string]string{script: "#!/bin/sh\necho edited\nexit 0\n"})
	m := run()
	n, _ := m["trustNotice"].(map[string]any)
	if n == nil {
		t.Fatalf("stale guard: no trustNotice in %v", m)
	}
	hooks, _ := n["hooks"].([]any)
	if len(hooks) != 1 || hooks[0].(map[string]any)["trustState"] != "stale_digest" || hooks[0].(map[string]any)["digest"] != st.Declarations[0].Digest {
		t.Errorf("notice hooks %v", hooks)
	}
	// The command names the home: pasted into a shell without this one's
	// environment, it reviews the same trust file.
	if n["reviewCommand"] != "hookside hooks trust review --home "+runner.ShellWord(e.home)+" --workspace "+runner.ShellWord(e.ws) || n["reviewMethod"] != "workspaceHooks/review/start" {
		t.Errorf("notice %v", n)
	}
	if msg, _ := n["message"].(string); !strings.Contains(msg, "not trusted") {
		t.Errorf("message %q", msg)
	}
}

// TestTrustStatusDisabledWording: a declaration with enabled: false is shown
// as disabled with what that means, never confused with the session switch.
func TestTrustStatusDisabledWording(t *testing.T) {
	e := newCLIEnv(t)
	writeFiles(t, map[string]string{
		filepath.Join(e.home, "config.json"): `{"hooks":{"enabled":true}}`,
		filepath.Join(e.ws, "zcode.json"):    zcodeDecls(map[string]any{"type": "command", "command": "true", "enabled": false}),
	})
	_, out, errs := e.hookside(t, "", "hooks", "trust", "status", "--home", e.home)
	if !strings.Contains(out, "disabled (enabled: false in its file)") {
		t.Errorf("status:\n%s%s", out, errs)
	}
}

// TestTrustStatusChangesReadAsWritten: the "changed since the grant" lines
// of a stale declaration show a command as written: a && b, not
// a \u0026\u0026 b.
func TestTrustStatusChangesReadAsWritten(t *testing.T) {
	e, _ := trustCLIEnv(t)
	e.grantAll(t, "--home", e.home)
	writeFiles(t, map[string]string{
		filepath.Join(e.ws, "zcode.json"): `{"hooks":{"events":{"Stop":[{"hooks":[{"type":"command","command":"true"},{"type":"command","command":"echo two && echo <three>"}]}]}}}`,
	})
	code, out, errs := e.hookside(t, "", "hooks", "trust", "status", "--home", e.home)
	if code != 0 {
		t.Fatalf("status: exit %d %s", code, errs)
	}
	if !strings.Contains(out, `"echo two" → "echo two && echo <three>"`) || strings.Contains(out, `\u00`) || strings.Contains(out, "older version") {
		t.Fatalf("the change is not shown as written:\n%s", out)
	}
}
