package main

// The human and --json output of `hooks run` (zcode and spark profiles).

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/hookside/hookside/output"
	"github.com/hookside/hookside/runner"
)

// runOutput is one run's stdout and stderr, redacted and capped
// (output.Preview, output.PreviewChars characters).
type runOutput struct {
	Stdout string `json:"stdout"`
	Stderr string `json:"stderr"`
}

// runOutputs is the runner.Observer of `hooks run`: it keeps each run's
// output previews by run id. Safe for concurrent use (parallel groups).
type runOutputs struct {
	mu    sync.Mutex
	byRun map[string]runOutput
}

func (o *runOutputs) HookStarted(runner.HookStart) {}

func (o *runOutputs) HookCompleted(d runner.HookDone) {
	out := runOutput{Stdout: output.Preview(d.Stdout, output.PreviewChars), Stderr: output.Preview(d.Stderr, output.PreviewChars)}
	o.mu.Lock()
	o.byRun[d.RunID] = out
	o.mu.Unlock()
}

func (o *runOutputs) get(runID string) runOutput {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.byRun[runID]
}

// mergedWithOutput is the hooks/run result with each run's stdout and
// stderr previews (`hooks run --json`).
type mergedWithOutput struct {
	output.Merged
	Runs []runWithOutput `json:"runs"`
}

type runWithOutput struct {
	output.Run
	runOutput
}

func (o *runOutputs) withOutput(m output.Merged) mergedWithOutput {
	return mergedWithOutput{Merged: m, Runs: o.runs(m.Runs)}
}

// runs is runs with each one's stdout and stderr previews.
func (o *runOutputs) runs(runs []output.Run) []runWithOutput {
	out := make([]runWithOutput, len(runs))
	for i, r := range runs {
		out[i] = runWithOutput{Run: r, runOutput: o.get(r.RunID)}
	}
	return out
}

// printRunCount prints the first line of a `hooks run` answer for people,
// the same in every profile: "EVENT: N hook(s) ran, M skipped", where M
// counts the runs admission skipped (untrusted workspace hooks, …) and N
// the others.
func printRunCount(w io.Writer, event string, runs []output.Run) {
	skipped := 0
	for _, r := range runs {
		if r.Outcome == output.OutcomeSkipped {
			skipped++
		}
	}
	fmt.Fprintf(w, "%s: %d hook(s) ran, %d skipped\n", event, len(runs)-skipped, skipped)
}

// printMerged prints a merged result for people; failed, timed-out and
// blocked runs are followed by their stdout and stderr previews. Text that
// comes from hooks (reasons, messages, context, updatedInput, errors and
// warnings) is redacted as the previews are (output.Redact): an exit-2
// block reason is the hook's stderr, shown right above its redacted
// preview. The --json result keeps it as the host gets it.
func printMerged(w io.Writer, m output.Merged, outs *runOutputs) {
	printRunCount(w, m.Event, m.Runs)
	if m.Decision != nil {
		fmt.Fprintf(w, "decision: %s", *m.Decision)
		if r := str(m.DecisionReason); r != "" && !(m.Blocked && r == str(m.BlockReason)) { // the blocked line says it
			fmt.Fprintf(w, " (%s)", textReason(r))
		}
		fmt.Fprintln(w)
	}
	if m.Blocked {
		printBlocked(w, str(m.BlockReason))
	}
	printJSONLine(w, "updatedInput", m.UpdatedInput)
	if !m.Continue {
		fmt.Fprintf(w, "continue: false (%s)\n", output.Redact(str(m.StopReason)))
	}
	for _, sm := range m.SystemMessages {
		fmt.Fprintf(w, "systemMessage: %s\n", output.Redact(sm))
	}
	if m.ModelContext != nil {
		fmt.Fprintf(w, "modelContext:\n%s\n", indent(output.Redact(*m.ModelContext)))
	}
	if m.Stop != nil {
		fmt.Fprintf(w, "stop: continueTurn=%v limit=%d stopHookActive=%v\n", m.Stop.ContinueTurn, m.Stop.Limit, m.Stop.StopHookActive)
	}
	printRuns(w, m.Runs, outs)
}

// printRuns prints one line per run (outcome, exit code, duration, hook
// id, its error or reason, redacted) and its warnings; failed,
// timed-out and blocked runs are followed by their output previews.
func printRuns(w io.Writer, runs []output.Run, outs *runOutputs) {
	for _, r := range runs {
		code := "-"
		if r.ExitCode != nil {
			code = fmt.Sprint(*r.ExitCode)
		}
		fmt.Fprintf(w, "  %-13s exit %-3s %5dms  %s", r.Outcome, code, r.DurationMs, r.HookID)
		if r.Error != "" {
			fmt.Fprintf(w, "  (%s)", output.Redact(r.Error))
		} else if r.Reason != "" {
			fmt.Fprintf(w, "  (%s)", output.Redact(r.Reason))
		}
		fmt.Fprintln(w)
		for _, warn := range r.Warnings {
			fmt.Fprintf(w, "      warning: %s\n", output.Redact(warn))
		}
		switch r.Outcome {
		case output.OutcomeFailed, output.OutcomeTimedOut, output.OutcomeBlocked:
			o := outs.get(r.RunID)
			printStream(w, "stdout", o.Stdout, r.StdoutTruncated)
			printStream(w, "stderr", o.Stderr, r.StderrTruncated)
		}
	}
}

// printBlocked prints the block line: its reason (redacted), or that the
// hook gave none (an exit 2 with empty stderr, a decision without a
// reason).
func printBlocked(w io.Writer, reason string) {
	if reason == "" {
		fmt.Fprintln(w, "blocked (no reason given: the blocking hook printed nothing on stderr and no reason)")
		return
	}
	fmt.Fprintf(w, "blocked: %s\n", textReason(reason))
}

// textReason is a decision or block reason for the text output: redacted
// and cut to output.PreviewChars characters, saying so when cut (a hook
// that blocks with megabytes of stderr; --json has the whole reason).
func textReason(r string) string {
	p := output.Preview([]byte(r), output.PreviewChars)
	if n := utf8.RuneCountInString(r); n > output.PreviewChars {
		p += fmt.Sprintf(" (%d characters, cut at %d; --json has them all)", n, output.PreviewChars)
	}
	return p
}

// printJSONLine prints "name: JSON" (redacted) when v holds a value.
func printJSONLine(w io.Writer, name string, v json.RawMessage) {
	if len(v) > 0 && string(v) != "null" {
		fmt.Fprintf(w, "%s: %s\n", name, output.Redact(string(v)))
	}
}

// printStream prints one output preview, indented under its run.
func printStream(w io.Writer, name, text string, truncated bool) {
	text = strings.TrimRight(text, "\n")
	if text == "" {
		return
	}
	more := ""
	if truncated {
		more = " (truncated at the hook's output limit)"
	}
	fmt.Fprintf(w, "      %s%s:\n%s\n", name, more, indentBy(text, "        "))
}

func indent(s string) string { return indentBy(s, "  ") }

func indentBy(s, by string) string {
	return by + strings.ReplaceAll(s, "\n", "\n"+by)
}
