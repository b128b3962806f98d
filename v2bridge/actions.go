package v2bridge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hookside/hookside/internal/jsonhtml"
	"github.com/hookside/hookside/runner/exec"
	"github.com/hookside/hookside/v2bridge/expr"
	"github.com/hookside/hookside/v2bridge/store"
)

// Tool risk levels and idempotency declarations (§6.3, §10.4).
const (
	RiskRead        = "read"
	RiskLowWrite    = "low-write"
	RiskHighWrite   = "high-write"
	RiskDestructive = "destructive"
)

// hostCall calls the host and classifies a failure (§6.3 normalisation): no
// answer within the action's timeout = timeout; a JSON-RPC error =
// action_failed; a closed connection or a cancellation = outcome_unknown
// (decided by perform from the context cause).
func (b *Bridge) hostCall(ctx context.Context, action, method string, params, result any) (outcome, bool) {
	h, ok := b.hostFor(action)
	if !ok { // the host went away before anything was sent
		return outcome{requeue: true}, false
	}
	if method != MethodToolResolve { // the request is the action itself
		markSent(ctx)
	}
	err := h.Call(ctx, method, params, result)
	if err == nil {
		return outcome{}, true
	}
	var he *HostError
	switch {
	case errors.Is(context.Cause(ctx), errActionTimeout):
		return failed(CodeTimeout, fmt.Sprintf("%s: no answer within the action timeout", method)), false
	case errors.As(err, &he):
		return failed(CodeActionFailed, fmt.Sprintf("%s: %s", method, he.Error())), false
	case errors.Is(err, ErrHostGone):
		return outcome{status: store.RunOutcomeUnknown, msg: fmt.Sprintf("%s: the host disconnected before answering; the action may have happened", method)}, false
	case ctx.Err() != nil:
		return outcome{status: store.RunOutcomeUnknown, msg: fmt.Sprintf("%s: cancelled in flight", method)}, false
	}
	return failed(CodeActionFailed, fmt.Sprintf("%s: %v", method, err)), false
}

// doNotification shows a notification through the host (§6.1). "Not shown"
// is recorded honestly in the output summary ({shown:false}); the run still
// succeeded (the host handled the request).
func (b *Bridge) doNotification(ctx context.Context, run store.Run, def *expr.Definition, env *expr.Envelope) outcome {
	title, body, err := notificationText(def, env, b.opts.Locale)
	if err != nil {
		return failed(CodeMappingFailed, err.Error())
	}
	in := expr.NewObject("title", title)
	if body != nil {
		in.Set("body", *body)
	}
	var res notificationResult
	if o, ok := b.hostCall(ctx, expr.ActionNotification, MethodNotificationShow,
		notificationParams{Title: title, Body: body, SessionID: env.Session.ID, RunID: run.ID}, &res); !ok {
		o.input = in
		return o
	}
	return outcome{status: store.RunSucceeded, input: in, output: map[string]any{"shown": res.Shown}}
}

// doSound plays the host's sound (§6.2); {played} is recorded.
func (b *Bridge) doSound(ctx context.Context, run store.Run) outcome {
	var res soundResult
	if o, ok := b.hostCall(ctx, expr.ActionSound, MethodSoundPlay, soundParams{RunID: run.ID}, &res); !ok {
		return o
	}
	return outcome{status: store.RunSucceeded, output: map[string]any{"played": res.Played}}
}

// doTool resolves the tool (found, version drift, risk policy — blocked
// otherwise, §6.3), maps the input (mapping_failed, no call, §5.3) and
// invokes it with invocationSource "hook" and, for keyed retries of a tool
// that declares keyed idempotency, the idempotency key (§10.4).
func (b *Bridge) doTool(ctx context.Context, run store.Run, def *expr.Definition, env *expr.Envelope) outcome {
	target := *def.Action.Target
	var rr toolResolveResult
	if o, ok := b.hostCall(ctx, expr.ActionTool, MethodToolResolve, toolResolveParams{Target: target}, &rr); !ok {
		return o
	}
	if !rr.Found {
		return blocked(CodeToolNotFound, "the tool catalogue has no %s/%s %s", target.SourceKind, target.SourceID, toolLabel(target))
	}
	if target.Version != "" && rr.Version != "" && target.Version != rr.Version {
		return blocked(CodeToolVersionChanged, "the definition names version %q, the tool is now %q", target.Version, rr.Version)
	}
	switch rr.RiskLevel {
	case RiskRead, RiskLowWrite:
	case RiskHighWrite:
		set, err := b.db.GetSettings(ctx)
		if err != nil {
			return pipelineFailure("reading settings: %v", err)
		}
		if !set.AllowHighWrite {
			// §6.3: high-write 工具默认不开放给 Hook 自动调用.
			return blocked(CodePolicyBlocked, "a high-write tool is not run by hooks unless settings.allowHighWrite is on (it is off)")
		}
	case RiskDestructive:
		// §6.3: 观察型 Hook 禁止 destructive 工具.
		return blocked(CodePolicyBlocked, "destructive tools are never run by hooks")
	default:
		return blocked(CodePolicyBlocked, "unknown tool risk level %q", rr.RiskLevel)
	}
	input, err := expr.Map(def.InputMapping, env)
	if err != nil {
		return failed(CodeMappingFailed, err.Error())
	}
	p := toolInvokeParams{Target: target, Input: input, InvocationSource: "hook", HookID: run.HookID, RunID: run.ID}
	keyed := def.RetryPolicy.Mode == expr.RetryKeyed && rr.Idempotency == "keyed"
	if keyed {
		p.IdempotencyKey = expr.IdempotencyKey(run.EventID, run.HookID, def.Action)
	}
	var res toolInvokeResult
	if o, ok := b.hostCall(ctx, expr.ActionTool, MethodToolInvoke, p, &res); !ok {
		o.input, o.keyed = input, keyed
		return o
	}
	var output any
	if len(res.Output) > 0 && string(res.Output) != "null" {
		if v, err := expr.DecodeOrdered(res.Output); err == nil {
			output = v
		}
	}
	if !res.OK {
		msg := res.Message
		if msg == "" {
			msg = "the tool reported a failure"
		}
		return outcome{status: store.RunFailed, code: normalizeToolError(res.ErrorCode), msg: msg, input: input, output: output, keyed: keyed}
	}
	return outcome{status: store.RunSucceeded, input: input, output: output, keyed: keyed}
}

func toolLabel(t expr.ToolTarget) string {
	if t.ToolName != "" {
		return t.ToolName
	}
	return t.QualifiedName
}

// normalizeToolError is §6.3: a failure without a code is action_failed; a
// known run error code is kept; anything else is action_failed.
func normalizeToolError(code string) string {
	switch code {
	case CodeTimeout, CodeTransientFailure, CodeActionFailed, CodeToolNotFound, CodeToolVersionChanged, CodePolicyBlocked:
		return code
	}
	return CodeActionFailed
}

// maxInlineInput is the largest mapped input also passed in HOOKSIDE_V2_INPUT.
const maxInlineInput = 64 << 10

// doCommand runs hookside's `command` action with exec.Run: the envelope
// JSON on stdin, cwd the hookside home (commandDir), the action timeout as
// deadline, its own process group.
// Exit 0 = succeeded; a timeout = timeout; anything else = action_failed.
func (b *Bridge) doCommand(ctx context.Context, run store.Run, def *expr.Definition, env *expr.Envelope) outcome {
	h := def.Action.Hook
	var input any
	if len(def.InputMapping) > 0 {
		m, err := expr.Map(def.InputMapping, env)
		if err != nil {
			return failed(CodeMappingFailed, err.Error())
		}
		input = m
	}
	var argv []string
	switch h.Type {
	case "process":
		argv = append([]string{h.Command}, h.Args...)
	default:
		var err error
		if argv, err = h.Shell.Argv(h.Command); err != nil {
			return failed(CodeActionFailed, err.Error())
		}
	}
	// Hook scripts read <, > and & as themselves, not \u003c.
	stdin, _ := json.Marshal(env)
	stdin = jsonhtml.Unescape(stdin)
	mappedJSON, _ := json.Marshal(input)
	mappedJSON = jsonhtml.Unescape(mappedJSON)
	envv := append(os.Environ(), "HOOKSIDE_V2_RUN_ID="+run.ID, "HOOKSIDE_V2_EVENT_ID="+run.EventID,
		"HOOKSIDE_V2_HOOK_ID="+run.HookID, "HOOKSIDE_V2_EVENT_NAME="+env.EventName,
		"HOOKSIDE_V2_WORKSPACE="+env.PrimaryWorkspaceID)
	// The mapped input: always in a private temp file (HOOKSIDE_V2_INPUT_FILE,
	// removed after the action) when a mapping exists; also inline in
	// HOOKSIDE_V2_INPUT while small, since the environment is size-limited
	// (execve fails with E2BIG around 128 KiB per string).
	if len(mappedJSON) <= maxInlineInput {
		envv = append(envv, "HOOKSIDE_V2_INPUT="+string(mappedJSON))
	}
	if input != nil {
		f, err := os.CreateTemp("", "hookside-v2-input-*.json")
		if err != nil {
			return failed(CodeActionFailed, "writing the mapped input file: "+err.Error())
		}
		_, werr := f.Write(mappedJSON)
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		defer os.Remove(f.Name())
		if werr != nil {
			return failed(CodeActionFailed, "writing the mapped input file: "+werr.Error())
		}
		envv = append(envv, "HOOKSIDE_V2_INPUT_FILE="+f.Name())
	}
	markSent(ctx)
	res := b.opts.Spawner.Run(ctx, exec.Spec{
		Argv: argv, Dir: b.commandDir(env), Env: envv, Stdin: append(stdin, '\n'),
		Timeout: time.Duration(*def.TimeoutMs) * time.Millisecond,
	})
	out := expr.NewObject("exitCode", res.ExitCode, "stdout", string(res.Stdout), "stderr", string(res.Stderr))
	switch {
	case res.StartErr != nil:
		return outcome{status: store.RunFailed, code: CodeActionFailed, msg: "start: " + res.StartErr.Error(), input: input}
	case res.TimedOut || errors.Is(context.Cause(ctx), errActionTimeout):
		return outcome{status: store.RunFailed, code: CodeTimeout, msg: fmt.Sprintf("the command did not finish within %d ms", *def.TimeoutMs), input: input, output: out}
	case res.Canceled:
		return outcome{status: store.RunOutcomeUnknown, msg: "the command was cancelled in flight", input: input, output: out}
	case res.ExitCode != 0:
		msg := fmt.Sprintf("exit status %d", res.ExitCode)
		if s := strings.TrimSpace(string(res.Stderr)); s != "" {
			msg += ": " + clipText(s, 300)
		}
		return outcome{status: store.RunFailed, code: CodeActionFailed, msg: msg, input: input, output: out}
	}
	return outcome{status: store.RunSucceeded, input: input, output: out}
}

// commandDir is the cwd of every command action: the hookside home, never a
// workspace named by the event (an event cannot choose which files run: a
// relative command would otherwise run from any directory the emitter names,
// bypassing workspace trust). The workspace reaches the action as data only
// (the envelope on stdin, HOOKSIDE_V2_WORKSPACE).
func (b *Bridge) commandDir(*expr.Envelope) string {
	if b.opts.Home != "" {
		return b.opts.Home
	}
	return filepath.Dir(b.db.Path())
}

func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
