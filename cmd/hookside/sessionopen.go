package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/runner"
	"github.com/hookside/hookside/truststore"
)

// open opens the one-shot session the flags place (placement) and words
// its pending-trust diagnostics' review command for the flags in use.
func (f *sessionFlags) open() (*runner.Session, []hook.Diagnostic, error) {
	return f.openStore(truststore.Options{})
}

// openToRead is open for a command that only shows what would run (hooks
// list, hooks explain): the trust file is read read-only, so a corrupt one
// is reported — store_corrupt on every workspace hook, and one line on
// stderr after prefix naming the file, the reason and that it was left in
// place — and not moved aside (that is for a session that runs hooks, or
// a write).
func (f *sessionFlags) openToRead(prefix string, stderr io.Writer) (*runner.Session, []hook.Diagnostic, error) {
	s, diags, err := f.openStore(truststore.Options{ReadOnly: true})
	if err == nil && s.Gate() != nil {
		if serr := s.Gate().StoreError(); serr != nil {
			fmt.Fprintf(stderr, "%s: warning: %s\n", prefix, dispText(serr.Error()))
		}
	}
	return s, diags, err
}

// openStore is open with the trust store options store.
func (f *sessionFlags) openStore(store truststore.Options) (*runner.Session, []hook.Diagnostic, error) {
	sid := f.sessionID
	if sid == "" {
		sid = fmt.Sprintf("cli-%d", os.Getpid())
	}
	policy, ok := truststore.ParsePolicy(f.policy)
	if !ok {
		return nil, nil, fmt.Errorf("--policy %q is not %s", f.policy, policyValues)
	}
	cwd, id, err := f.placement()
	if err != nil {
		return nil, nil, err
	}
	s, diags, err := runner.Open(runner.SessionOptions{
		ID: sid, Cwd: cwd, WorkspaceID: id, UserConfigPath: f.userConfig, PluginDirs: f.pluginDirs,
		Profile: f.profile, UserDir: f.userDir(), TranscriptPath: f.transcriptPath, Mode: f.mode, Env: f.env,
		Workspace: runner.WorkspaceOptions{Feature: f.workspaceHooks, Policy: policy, Home: f.home, ProjectConfigPath: f.projectConfig, HooksEnabled: f.hooksEnabled, Store: store},
	})
	if err == nil && f.flags != nil {
		withReviewHint(diags, "hookside hooks trust review"+hintFlags(f.flags, hintTrust)+reviewTarget(s))
	}
	return s, diags, cliOpenError(err, cwd)
}

// placement is the session directory and workspace identity of the flags,
// as `hooks trust` reads them: --cwd DIR alone, DIR and its identity
// (CanonicalID, "" here); --workspace PATH alone, PATH and its identity;
// --workspace PATH --cwd DIR, DIR (which must lie inside PATH) under
// PATH's identity. Errors: PATH is not a local directory, DIR is not one
// or lies outside PATH.
func (f *sessionFlags) placement() (cwd, id string, err error) {
	if f.workspace == "" {
		return f.cwd, "", nil
	}
	target, err := truststore.ResolveTarget(f.workspace)
	if err != nil {
		return "", "", fmt.Errorf("--workspace: %w", err)
	}
	if target.Dir == "" {
		return "", "", fmt.Errorf("--workspace %s: a session needs a local workspace directory, not an identity", f.workspace)
	}
	if f.cwd == "" || f.cwd == f.workspace {
		return target.Dir, target.ID, nil
	}
	dir, err := sessionDirIn(f.cwd, target)
	return dir, target.ID, err
}

// reviewTarget is the --workspace (and --cwd) tail of a printed review
// command for s, as Session.ReviewCommand builds it: the session's
// workspace identity, then its directory when that lies strictly inside
// the identity's directory — so the review resolves the pins where this
// session runs its hooks, under the identity it admits them with.
func reviewTarget(s *runner.Session) string {
	t := " --workspace " + hintWord(s.Options().WorkspaceID)
	if d := s.ReviewCwd(); d != "" {
		t += " --cwd " + hintWord(d)
	}
	return t
}

// withReviewHint puts review, a command repeating the flags in use, in
// place of the generic review command of the pending-trust diagnostics
// (truststore.CodePendingTrust) of diags, so that run as printed it reviews
// the same declarations.
func withReviewHint(diags []hook.Diagnostic, review string) {
	const start, end = "(hookside hooks trust review", ", or workspaceHooks/review/start)"
	for i := range diags {
		d := &diags[i]
		if d.Code != truststore.CodePendingTrust {
			continue
		}
		if a := strings.Index(d.Message, start); a >= 0 {
			if b := strings.Index(d.Message[a:], end); b >= 0 {
				d.Message = d.Message[:a+1] + review + d.Message[a+b:]
			}
		}
	}
}
