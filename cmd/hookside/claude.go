package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/hookside/hookside/internal/jsonexact"
	"github.com/hookside/hookside/internal/jsonpos"
	"github.com/hookside/hookside/output"
	"github.com/hookside/hookside/runner"
)

// runClaudeCLI runs one event of a claude-profile session and prints the
// merged answer (docs/compatibility.md "The claude profile"); --json is the
// hooks/run result with each run's stdout and stderr previews, as on the
// zcode profile. Exit status: 2 when the event's action is blocked or a
// hook answered continue:false, 130/143 when SIGINT/SIGTERM (caught)
// stopped the run (runFailure), 1 for another failure (an input error at
// its place in input: hookInput.locate), else 0. Workspace
// hooks skipped for trust are listed on stderr with a review command
// repeating hint (hintFlags), as on the zcode profile, at the run's
// directory when the input's cwd is another (--run-cwd).
func runClaudeCLI(ctx context.Context, s *runner.Session, req runner.RunRequest, input hookInput, asJSON bool, hint string, caught func() os.Signal, stdout, stderr io.Writer) int {
	outs := &runOutputs{byRun: map[string]runOutput{}}
	m, err := s.RunClaude(ctx, req, outs)
	if err != nil {
		return runFailure(stderr, input.locate(err), caught)
	}
	if asJSON {
		writeJSON(stdout, claudeMergedWithOutput{ClaudeMerged: m, Runs: outs.runs(m.Runs)})
	} else {
		printClaudeMerged(termSafe{stdout}, m, outs)
	}
	var in map[string]any
	_ = jsonexact.Unmarshal(req.Input, &in) // an object: runHooksRun checked it
	cwd, _ := in["cwd"].(string)
	printSkippedForTrust(stderr, s, m.Runs, hint, s.RunReviewCwd(cwd))
	printMatcherFieldMissing(stderr, s, req.Event, in)
	return hooksRunStatus(stderr, m.Blocked, m.Continue, m.StopReason)
}

// claudeMergedWithOutput is the claude-profile hooks/run result with each
// run's stdout and stderr previews (`hooks run --profile claude --json`).
type claudeMergedWithOutput struct {
	output.ClaudeMerged
	Runs []runWithOutput `json:"runs"`
}

// printClaudeMerged prints a claude-profile answer for people, text from
// hooks redacted as printMerged's is; failed, timed-out and blocked runs
// are followed by their stdout and stderr previews.
func printClaudeMerged(w io.Writer, m output.ClaudeMerged, outs *runOutputs) {
	rd := func(p *string) string { return output.Redact(str(p)) }
	printRunCount(w, m.Event, m.Runs)
	if m.PermissionDecision != nil {
		fmt.Fprintf(w, "permissionDecision: %s", *m.PermissionDecision)
		if r := str(m.PermissionDecisionReason); r != "" && !(m.Blocked && r == str(m.BlockReason)) { // the blocked line says it
			fmt.Fprintf(w, " (%s)", textReason(r))
		}
		fmt.Fprintln(w)
	}
	printJSONLine(w, "updatedInput", m.UpdatedInput)
	if p := m.Permission; p != nil {
		fmt.Fprintf(w, "permission: %s", p.Behavior)
		if p.Message != "" {
			fmt.Fprintf(w, " (%s)", output.Redact(p.Message))
		}
		if p.Interrupt {
			fmt.Fprint(w, " interrupt")
		}
		fmt.Fprintln(w)
		printJSONLine(w, "permission updatedInput", p.UpdatedInput)
		printJSONLine(w, "permission updatedPermissions", p.UpdatedPermissions)
	}
	printJSONLine(w, "updatedToolOutput", m.UpdatedToolOutput)
	printJSONLine(w, "updatedMCPToolOutput", m.UpdatedMCPToolOutput)
	if m.Elicitation != nil {
		fmt.Fprintf(w, "elicitation: %s\n", m.Elicitation.Action)
		printJSONLine(w, "elicitation content", m.Elicitation.Content)
	}
	for _, f := range []struct {
		name string
		v    *string
	}{{"classifierContext", m.ClassifierContext}, {"sessionTitle", m.SessionTitle}, {"initialUserMessage", m.InitialUserMessage},
		{"displayContent", m.DisplayContent}, {"worktreePath", m.WorktreePath}} {
		if f.v != nil {
			fmt.Fprintf(w, "%s: %s\n", f.name, rd(f.v))
		}
	}
	for _, f := range []struct {
		name string
		on   bool
	}{{"suppressOriginalPrompt", m.SuppressOriginalPrompt}, {"reloadSkills", m.ReloadSkills}, {"retry", m.Retry}} {
		if f.on {
			fmt.Fprintf(w, "%s: true\n", f.name)
		}
	}
	for _, p := range m.WatchPaths {
		fmt.Fprintf(w, "watchPath: %s\n", output.Redact(p))
	}
	if n := len(m.TerminalSequences); n > 0 { // escape sequences for the host's terminal, not this one
		fmt.Fprintf(w, "terminalSequences: %d (not printed; --json has them)\n", n)
	}
	if m.Blocked {
		printBlocked(w, str(m.BlockReason))
	}
	if m.Stop != nil {
		fmt.Fprintf(w, "stop: continue=%v (%d/%d consecutive) %s\n", m.Stop.ContinueTurn, m.Stop.Consecutive, m.Stop.Limit, rd(m.Stop.Continuation))
	}
	for _, f := range m.Feedback {
		fmt.Fprintf(w, "feedback for the model: %s\n", output.Redact(f))
	}
	for _, c := range m.AdditionalContext {
		fmt.Fprintf(w, "context: %s\n", output.Redact(c))
	}
	if !m.Continue {
		fmt.Fprintf(w, "continue: false (%s)\n", rd(m.StopReason))
	}
	for _, sm := range m.SystemMessages {
		fmt.Fprintf(w, "systemMessage: %s\n", output.Redact(sm))
	}
	for _, e := range m.HookErrors {
		fmt.Fprintf(w, "hook error: %s\n", output.Redact(e))
	}
	for _, e := range m.EnvExports {
		fmt.Fprintf(w, "env: %s\n", output.Redact(e))
	}
	printRuns(w, m.Runs, outs)
}

// claudeExplainInput is the event input for `hooks explain --profile
// claude`: data, the object readInput gave (nil = {}), with tool as
// tool_name when the input has none.
func claudeExplainInput(data []byte, path, tool string) (json.RawMessage, error) {
	in := map[string]any{}
	if data != nil {
		if err := jsonexact.Unmarshal(data, &in); err != nil {
			return nil, fmt.Errorf("--input %s: %v", path, err)
		}
	}
	if _, ok := in["tool_name"]; !ok && tool != "" {
		in["tool_name"] = tool
	}
	return json.Marshal(in)
}

// hookInput is the --input of hooks run and hooks explain as readInput
// read it.
type hookInput struct {
	body []byte // the JSON object, without a leading byte order mark
	name string // the path, "<stdin>" for "-"
	data []byte // as read: offsets (and so columns) count the mark
}

// locate is err with "NAME:line:col: " before it, the place of the input
// member an *runner.InputError names (Field: keys joined by ".", elements
// as "[i]": "toolInput", "attachments[1].size", "tool_name"), as the
// syntax, UTF-8 and duplicate-member errors of the same input carry one;
// err itself when it is no such error, names no member, or the member is
// not in the input (a tool_name --tool filled in).
func (in hookInput) locate(err error) error {
	var ie *runner.InputError
	if !errors.As(err, &ie) || ie.Field == "" {
		return err
	}
	off, ok := jsonpos.PathOffset(in.body, ie.Field)
	if !ok {
		return err
	}
	return fmt.Errorf("%s: %w", jsonpos.At(in.name, in.data, len(in.data)-len(in.body)+off), err)
}

// readInput reads the --input of hooks run and hooks explain (path "-" =
// stdin) and returns the JSON object it holds (inputObject: a UTF-8 JSON
// object, each member named once, after a byte order mark if there is
// one). The error, for every profile, is "read input: --input PATH:
// REASON" for a file that cannot be read (REASON the system's: "no such
// file or directory", or "larger than 64 MiB, …" past maxInputBytes),
// else inputObject's message.
func readInput(path string) (hookInput, error) {
	data, err := readBounded(path, os.Stdin)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return hookInput{}, fmt.Errorf("read input: --input %s: %v", path, err)
	}
	body, msg := inputObject(path, data)
	if msg != "" {
		return hookInput{}, errors.New(msg)
	}
	name := path
	if path == "-" {
		name = "<stdin>"
	}
	return hookInput{body: body, name: name, data: data}, nil
}
