package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// hooksRun is the part of a hooks/run answer the demo shows and checks.
type hooksRun struct {
	Decision       *string `json:"decision"`
	DecisionReason *string `json:"decisionReason"`
	Blocked        bool    `json:"blocked"`
	BlockReason    *string `json:"blockReason"`
	ModelContext   *string `json:"modelContext"`
	Stop           *struct {
		ContinueTurn   bool    `json:"continueTurn"`
		Continuation   *string `json:"continuation"`
		StopHookActive bool    `json:"stopHookActive"`
	} `json:"stop"`
	Runs []struct {
		HookID  string `json:"hookId"`
		Outcome string `json:"outcome"`
		Reason  string `json:"reason"`
	} `json:"runs"`
}

// trustView is the part of session/open, workspaceHooks/status and
// review/start answers the demo shows and checks.
type trustView struct {
	WorkspaceHooks *struct {
		Counts map[string]int `json:"counts"`
	} `json:"workspaceHooks"`
	Counts       map[string]int `json:"counts"`
	ReviewID     string         `json:"reviewId"`
	BundleDigest string         `json:"bundleDigest"`
	Declarations []struct {
		Digest     string   `json:"digest"`
		Event      string   `json:"event"`
		Matcher    *string  `json:"matcher"`
		Command    string   `json:"command"`
		Args       []string `json:"args"`
		TrustState string   `json:"trustState"`
		Reason     string   `json:"reason"`
		Pins       []struct {
			Path   string `json:"path"`
			Kind   string `json:"kind"`
			SHA256 string `json:"sha256"`
		} `json:"pins"`
	} `json:"declarations"`
	Trusted []string `json:"trusted"`
	Failed  any      `json:"failed"`
}

func decode[T any](res json.RawMessage) (T, error) {
	var v T
	err := json.Unmarshal(res, &v)
	return v, err
}

// wantDecision checks a hooks/run answer's decision ("" = none).
func wantDecision(want string) func(json.RawMessage) error {
	return func(res json.RawMessage) error {
		r, err := decode[hooksRun](res)
		if err != nil {
			return err
		}
		got := ""
		if r.Decision != nil {
			got = *r.Decision
		}
		if got != want {
			return fmt.Errorf("decision %q, want %q", got, want)
		}
		return nil
	}
}

func wantRun(outcome, reason string) func(json.RawMessage) error {
	return func(res json.RawMessage) error {
		r, err := decode[hooksRun](res)
		if err != nil {
			return err
		}
		for _, run := range r.Runs {
			if strings.HasPrefix(run.HookID, "workspace:") {
				if run.Outcome != outcome || !strings.Contains(run.Reason, reason) {
					return fmt.Errorf("workspace hook %s (%s), want %s (%s)", run.Outcome, run.Reason, outcome, reason)
				}
				return nil
			}
		}
		return fmt.Errorf("no run of the workspace hook in %s", clip(res))
	}
}

// wantContext checks that a hooks/run answer adds model context and does not block.
func wantContext(res json.RawMessage) error {
	r, err := decode[hooksRun](res)
	if err != nil {
		return err
	}
	if r.ModelContext == nil || r.Blocked {
		return fmt.Errorf("want modelContext and no block, got %s", clip(res))
	}
	return nil
}

// wantNoRuns checks that no hook ran.
func wantNoRuns(res json.RawMessage) error {
	if r, err := decode[hooksRun](res); err != nil || len(r.Runs) != 0 {
		return fmt.Errorf("want no hook runs, got %s", clip(res))
	}
	return nil
}

func all(checks ...func(json.RawMessage) error) func(json.RawMessage) error {
	return func(res json.RawMessage) error {
		for _, c := range checks {
			if err := c(res); err != nil {
				return err
			}
		}
		return nil
	}
}

func (t *tour) shellHooks() error {
	return t.do(
		step{"handshake (the host shows V2 notifications)", "initialize", map[string]any{"protocolVersion": "1",
			"clientInfo": map[string]any{"name": "hookside-demo", "version": "1"}, "capabilities": map[string]any{"hostActions": []string{"notification"}}}, nil},
		step{"open a session on the workspace", "session/open", map[string]any{"sessionId": "demo-1", "cwd": t.ws, "agentName": "demo-agent", "mode": "build"}, nil},
		step{"SessionStart: the project notes become context", "hooks/run", run1("demo-1", "SessionStart", map[string]any{"source": "startup"}), wantContext},
		step{"UserPromptSubmit: a normal prompt gets a reminder", "hooks/run", run1("demo-1", "UserPromptSubmit", map[string]any{"prompt": "Fix the failing test in parser.go"}), wantContext},
		step{"UserPromptSubmit: a prompt with a credential is blocked (exit 2)", "hooks/run", run1("demo-1", "UserPromptSubmit", map[string]any{"prompt": "use api_key=abc123 for the call"}), func(res json.RawMessage) error {
			if r, err := decode[hooksRun](res); err != nil || !r.Blocked {
				return fmt.Errorf("the prompt was not blocked")
			}
			return nil
		}},
		step{"PreToolUse: a harmless command is allowed", "hooks/run", tool("demo-1", "PreToolUse", "Bash", map[string]any{"command": "ls -la"}), wantDecision("allow")},
		step{"PreToolUse: rm -rf is denied", "hooks/run", tool("demo-1", "PreToolUse", "Bash", map[string]any{"command": "rm -rf build/"}), wantDecision("deny")},
		step{"PreToolUse: git push asks the user", "hooks/run", tool("demo-1", "PreToolUse", "Bash", map[string]any{"command": "git push origin main"}), wantDecision("ask")},
		step{"PermissionRequest: no hook configured, nothing to say", "hooks/run", tool("demo-1", "PermissionRequest", "Bash", map[string]any{"command": "git push origin main"}), all(wantNoRuns, wantDecision(""))},
		step{"PostToolUse: an edit adds a reminder to the tool result", "hooks/run", post("PostToolUse", "Edit", map[string]any{"file_path": "parser.go"}), wantContext},
		step{"PostToolUseFailure: no hook configured", "hooks/run", post("PostToolUseFailure", "Bash", map[string]any{"command": "make"}), wantNoRuns},
		step{"Stop: the first stop is sent back once to run the tests", "hooks/run", run1("demo-1", "Stop", map[string]any{"responseText": "Done: fixed the parser."}), func(res json.RawMessage) error {
			if r, err := decode[hooksRun](res); err != nil || r.Stop == nil || !r.Stop.ContinueTurn {
				return fmt.Errorf("the turn was not continued")
			}
			return nil
		}},
		step{"Stop: the marker exists now, the turn may end", "hooks/run", run1("demo-1", "Stop", map[string]any{"responseText": "Tests pass; done."}), func(res json.RawMessage) error {
			if r, err := decode[hooksRun](res); err != nil || r.Stop == nil || r.Stop.ContinueTurn {
				return fmt.Errorf("the turn was continued again")
			}
			return nil
		}},
	)
}

// editGenerated is the tool call the workspace's own hook guards.
func editGenerated() map[string]any {
	return tool("demo-2", "PreToolUse", "Edit", map[string]any{"file_path": "generated/api.go"})
}

func (t *tour) workspaceTrust() error {
	fmt.Fprintf(t.w, "The workspace's zcode.json declares a PreToolUse hook (python3 scripts/protect_generated.py)\n"+
		"that denies edits under generated/. Cloning a repository must never make its hooks run.\n\n")
	pending := func(res json.RawMessage) error {
		v, err := decode[trustView](res)
		if err != nil {
			return err
		}
		counts := v.Counts
		if v.WorkspaceHooks != nil {
			counts = v.WorkspaceHooks.Counts
		}
		if counts["pending_trust"] != 1 {
			return fmt.Errorf("counts %v, want pending_trust: 1", counts)
		}
		return nil
	}
	if err := t.do(
		step{"open a session with workspaceHooks: true (the host offers the trust review)", "session/open",
			map[string]any{"sessionId": "demo-2", "cwd": t.ws, "agentName": "demo-agent", "mode": "build", "workspaceHooks": true}, pending},
		step{"PreToolUse: editing generated/ — the untrusted hook is skipped", "hooks/run", editGenerated(), all(wantRun("skipped", "pending_trust"), wantDecision(""))},
		step{"workspaceHooks/status: what the settings page shows", "workspaceHooks/status", map[string]any{"sessionId": "demo-2"}, pending},
	); err != nil {
		return err
	}
	res, err := t.step(step{"workspaceHooks/review/start: the dialog lists every declaration and its pinned scripts",
		"workspaceHooks/review/start", map[string]any{"sessionId": "demo-2"}, func(res json.RawMessage) error {
			v, err := decode[trustView](res)
			if err != nil || v.ReviewID == "" || len(v.Declarations) != 1 || v.Declarations[0].TrustState != "pending_trust" {
				return fmt.Errorf("want a review of one pending_trust declaration, got %s", clip(res))
			}
			return nil
		}})
	if err != nil {
		return err
	}
	review, _ := decode[trustView](res)
	var digests []string
	for _, d := range review.Declarations {
		digests = append(digests, d.Digest)
	}
	if len(digests) != 1 {
		return fmt.Errorf("review/start: %d declarations, want 1", len(digests))
	}
	if err := t.do(
		step{"workspaceHooks/review/submit trust_selected: the user grants it", "workspaceHooks/review/submit",
			map[string]any{"reviewId": review.ReviewID, "decision": "trust_selected", "digests": digests}, func(res json.RawMessage) error {
				v, err := decode[trustView](res)
				if err != nil {
					return err
				}
				if !slices.Equal(v.Trusted, digests) || v.Counts["trusted_persistent"] != 1 {
					return fmt.Errorf("trusted %v counts %v, want the reviewed digest trusted", v.Trusted, v.Counts)
				}
				return nil
			}},
		step{"PreToolUse: editing generated/ — the trusted hook runs and denies", "hooks/run", editGenerated(), all(wantRun("succeeded", ""), wantDecision("deny"))},
	); err != nil {
		return err
	}
	script := filepath.Join(t.ws, "scripts", "protect_generated.py")
	f, err := os.OpenFile(script, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	_, err = f.WriteString("# edited after the grant\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(t.w, "✎  appended a line to scripts/protect_generated.py (the grant pinned its SHA-256)\n\n")
	stale := func(res json.RawMessage) error {
		v, err := decode[trustView](res)
		if err != nil {
			return err
		}
		if len(v.Declarations) != 1 || v.Declarations[0].TrustState != "stale_digest" || v.Declarations[0].Reason != "script_changed" {
			return fmt.Errorf("want one declaration stale_digest (script_changed), got %s", clip(res))
		}
		return nil
	}
	return t.do(
		step{"workspaceHooks/status: the pin no longer holds", "workspaceHooks/status", map[string]any{"sessionId": "demo-2"}, stale},
		step{"PreToolUse: editing generated/ — the stale hook is skipped, what it guarded is allowed", "hooks/run", editGenerated(), all(wantRun("skipped", "stale_digest"), wantDecision(""))},
	)
}

func (t *tour) lifecycleNotification() error {
	fmt.Fprintf(t.w, "The host reports lifecycle facts; a definition bound to the application turns each\n"+
		"turn.completed into a host/notification/show request, which this host answers.\n\n")
	def := map[string]any{"id": "notify-turn-completed", "name": "Tell me when a turn is done", "eventName": "turn.completed",
		"action": map[string]any{"type": "notification", "title": map[string]any{"template": "Done: ${session.title}"},
			"body": map[string]any{"path": "payload.message"}}}
	if err := t.do(
		step{"v2/definitions/create: a notification on turn.completed", "v2/definitions/create", map[string]any{"definition": def}, nil},
		step{"v2/bindings/create: authorise it everywhere (application scope)", "v2/bindings/create",
			map[string]any{"hookId": "notify-turn-completed", "scopeKind": "application"}, func(res json.RawMessage) error {
				if b, err := decode[struct{ State string }](res); err != nil || b.State != "active" {
					return fmt.Errorf("binding not active: %s", clip(res))
				}
				return nil
			}},
	); err != nil {
		return err
	}
	wsID := "local:" + t.ws
	res, err := t.step(step{"v2/events/emit turn.completed: the seven-event session's turn ended", "v2/events/emit", map[string]any{
		"eventName": "turn.completed", "session": map[string]any{"id": "demo-1", "title": "Fix the parser"},
		"turn": map[string]any{"id": newTurnID()}, "workspaces": []any{map[string]any{"id": wsID, "name": "workspace"}},
		"primaryWorkspaceId": wsID, "payload": map[string]any{"message": "Tests pass; done."}}, func(res json.RawMessage) error {
		if e, err := decode[struct{ Enqueued bool }](res); err != nil || !e.Enqueued {
			return fmt.Errorf("the event was not enqueued")
		}
		return nil
	}})
	if err != nil {
		return err
	}
	_ = res
	req, err := t.h.hostRequest()
	if err != nil {
		return err
	}
	var show struct {
		Title, Body, SessionID, RunID string
	}
	if req.Method != "host/notification/show" || json.Unmarshal(req.Params, &show) != nil {
		return fmt.Errorf("expected host/notification/show, got %s %s", req.Method, req.Params)
	}
	answer, _ := json.Marshal(req.Answer)
	fmt.Fprintf(t.w, "── hookside asks the host to show a notification\n   ⇠ %s %s\n   ⇢ %s\n", req.Method, req.Params, answer)
	fmt.Fprintf(t.w, "   ┌ notification ─────────────\n   │ %s\n   │ %s\n   └───────────────────────────\n\n", show.Title, show.Body)
	if show.Title != "Done: Fix the parser" || show.Body != "Tests pass; done." || show.SessionID != "demo-1" {
		return fmt.Errorf("notification %+v, want title \"Done: Fix the parser\", body \"Tests pass; done.\"", show)
	}
	if _, err := t.h.runReaches(show.RunID, "succeeded"); err != nil {
		return err
	}
	_, err = t.step(step{"v2/runs/list: the run history", "v2/runs/list", map[string]any{"hookId": "notify-turn-completed"}, func(res json.RawMessage) error {
		l, err := decode[struct {
			Runs []struct {
				ID, Status    string
				OutputSummary map[string]any
			}
		}](res)
		if err != nil || len(l.Runs) != 1 || l.Runs[0].ID != show.RunID || l.Runs[0].Status != "succeeded" || l.Runs[0].OutputSummary["shown"] != true {
			return fmt.Errorf("want one run %s succeeded with shown: true, got %s", show.RunID, clip(res))
		}
		return nil
	}})
	return err
}

func run1(session, event string, input map[string]any) map[string]any {
	return map[string]any{"sessionId": session, "event": event, "turnId": "turn-1", "input": input}
}

func tool(session, event, name string, in map[string]any) map[string]any {
	return run1(session, event, map[string]any{"toolName": name, "toolInput": in, "toolCallId": "call-" + event})
}

func post(event, name string, in map[string]any) map[string]any {
	m := tool("demo-1", event, name, in)
	input := m["input"].(map[string]any)
	if event == "PostToolUse" {
		input["toolResponse"] = map[string]any{"ok": true}
	} else {
		input["error"] = "make: *** [all] Error 2"
	}
	return m
}

// summarize prints the interesting part of a result.
func summarize(method string, res json.RawMessage) string {
	switch method {
	case "hooks/run":
	case "session/open", "workspaceHooks/status", "workspaceHooks/review/start", "workspaceHooks/review/submit":
		return summarizeTrust(res)
	case "v2/definitions/create", "v2/bindings/create", "v2/runs/list":
		return summarizeV2(res)
	default:
		return clip(res)
	}
	m, err := decode[hooksRun](res)
	if err != nil {
		return string(res)
	}
	var parts []string
	for _, r := range m.Runs {
		p := r.Outcome
		if r.Reason != "" {
			p += " (" + r.Reason + ")"
		}
		parts = append(parts, p)
	}
	s := fmt.Sprintf("runs %v", parts)
	if m.Decision != nil {
		s += fmt.Sprintf(" · decision %s", *m.Decision)
		if m.DecisionReason != nil {
			s += fmt.Sprintf(" (%s)", *m.DecisionReason)
		}
	}
	if m.Blocked {
		s += " · BLOCKED"
		if m.BlockReason != nil {
			s += ": " + *m.BlockReason
		}
	}
	if m.ModelContext != nil {
		s += "\n     modelContext: " + indent(*m.ModelContext)
	}
	if m.Stop != nil {
		s += fmt.Sprintf("\n     stop: continueTurn=%v stopHookActive=%v", m.Stop.ContinueTurn, m.Stop.StopHookActive)
		if m.Stop.Continuation != nil {
			s += "\n     continuation: " + indent(*m.Stop.Continuation)
		}
	}
	return s
}

func summarizeTrust(res json.RawMessage) string {
	v, err := decode[trustView](res)
	if err != nil {
		return clip(res)
	}
	counts := v.Counts
	if v.WorkspaceHooks != nil {
		counts = v.WorkspaceHooks.Counts
	}
	var parts []string
	if counts != nil {
		parts = append(parts, fmt.Sprintf("counts %v", counts))
	}
	if v.ReviewID != "" {
		parts = append(parts, "reviewId "+v.ReviewID)
	}
	s := strings.Join(parts, " · ")
	if v.Trusted != nil {
		s += fmt.Sprintf(" · trusted %v", short(v.Trusted))
	}
	if v.Failed != nil {
		s += fmt.Sprintf(" · failed %v", v.Failed)
	}
	for _, d := range v.Declarations {
		m := "*"
		if d.Matcher != nil {
			m = *d.Matcher
		}
		s += fmt.Sprintf("\n     %s %s[%s] %s %s: %s", short([]string{d.Digest})[0], d.Event, m, d.Command, strings.Join(d.Args, " "), d.TrustState)
		if d.Reason != "" {
			s += " (" + d.Reason + ")"
		}
		for _, p := range d.Pins {
			s += fmt.Sprintf("\n       pin %s %s %s", p.Kind, p.Path, short([]string{p.SHA256})[0])
		}
	}
	return s
}

// short abbreviates hex digests to 12 characters.
func short(ds []string) []string {
	out := make([]string, len(ds))
	for i, d := range ds {
		if len(d) > 12 {
			d = d[:12] + "…"
		}
		out[i] = d
	}
	return out
}

// summarizeV2 shows a definition, a binding or a run list by its key fields.
func summarizeV2(res json.RawMessage) string {
	var v struct {
		Definition *struct {
			ID, EventName, ExecutionHash string
			Revision                     int
		}
		ID, HookID, ScopeKind, State string
		Runs                         []struct {
			ID, EventName, Status string
			OutputSummary         json.RawMessage
		}
	}
	if err := json.Unmarshal(res, &v); err != nil {
		return clip(res)
	}
	switch {
	case v.Definition != nil:
		d := v.Definition
		return fmt.Sprintf("definition %s on %s, revision %d, executionHash %s", d.ID, d.EventName, d.Revision, short([]string{d.ExecutionHash})[0])
	case v.Runs != nil:
		var lines []string
		for _, r := range v.Runs {
			lines = append(lines, fmt.Sprintf("run %s (%s): %s, outputSummary %s", r.ID, r.EventName, r.Status, r.OutputSummary))
		}
		return strings.Join(lines, "\n     ")
	default:
		return fmt.Sprintf("binding %s of %s, scope %s, state %s", v.ID, v.HookID, v.ScopeKind, v.State)
	}
}
