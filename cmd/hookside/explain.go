package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/runner"
)

// hooksExplainCmd is `hookside hooks explain`: every configured hook of
// every source (disabled, dropped and untrusted ones included) and whether
// it would run for one event and tool, and why not. It runs nothing. Exit
// status as `hooks run` without the blocked case: 0 explained (diagnostics
// included), 1 error (a flag or argument error, or a session that cannot be
// opened: a --cwd that is not a directory, an unknown profile or policy).
func hooksExplainCmd(stdout, stderr io.Writer) *cobra.Command {
	var sf sessionFlags
	var event, tool, inputPath string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "explain",
		Short: "explain which hooks would run for an event (and why not)",
		Long: "Show every configured hook (all sources, including disabled, invalid, over-limit and untrusted\n" +
			"workspace ones) and whether it would run for EVENT (and tool NAME), and why not. Runs nothing,\n" +
			"and leaves a corrupt trust file where it is (store_corrupt, a warning on stderr).\n" +
			"Exit status: 0 explained (also when hooks would not run or files have diagnostics), 1 error\n" +
			"(a usage error, or a session that cannot be opened), as hooks run without its 2 for blocked.",
		Annotations: map[string]string{annUsageExit: "1", annJSONErrors: jsonErrorsMessage},
	}
	fs := cmd.Flags()
	fs.StringVar(&event, "event", "", "the `EVENT`: "+strings.Join(hook.Events, ", ")+" (--profile claude: every Claude Code event)")
	fs.StringVar(&tool, "tool", "", "the tool `NAME` matchers are tested against (the source on SessionStart); none = matchers not consulted")
	fs.BoolVar(&asJSON, "json", false, "print JSON ({profile, event, tool, hooks, diagnostics}); a failure (a flag or input error) prints {\"error\": {\"message\"}}")
	fs.StringVar(&inputPath, "input", "", "`FILE` path, or - for stdin, holding the hook input JSON object Claude Code sends for EVENT (snake_case: tool_name, tool_input, source, …); its matcher field and if rules are tested against it. Read and checked under every profile (a file that cannot be read or is not a JSON object is an error, exit 1), used by --profile claude only. Absent: {}; --tool fills in tool_name when the input has none")
	sf.registerAll(fs)
	flagRequired(fs, "event")
	flagUse(fs, "input", "[--input FILE|-]")
	completeEvents(cmd)
	return setRun(cmd, func(args []string) int {
		return messageJSONErrors(cmd, asJSON, stdout, stderr, func(stdout, stderr io.Writer) int {
			if noArgs(cmd, args, stderr) {
				return exitError
			}
			return runHooksExplain(&sf, event, tool, inputPath, asJSON, stdout, stderr)
		})
	})
}

func runHooksExplain(sf *sessionFlags, event, tool, inputPath string, asJSON bool, stdout, stderr io.Writer) int {
	if events := profileEvents(sf.profile); event == "" || !slices.Contains(events, event) {
		fmt.Fprintln(stderr, "hookside hooks explain:", eventError(event, events))
		return exitError
	}
	if err := checkProfilePolicy(sf, sf.policy); err != nil {
		fmt.Fprintln(stderr, "hookside hooks explain:", err)
		return exitError
	}
	// The input is read and checked under every profile (a file that
	// cannot be read is the same error), and used by the claude one.
	var in hookInput
	if inputPath != "" {
		var err error
		if in, err = readInput(inputPath); err != nil {
			fmt.Fprintln(stderr, "hookside hooks explain:", err)
			return exitError
		}
	}
	s, _, err := sf.openToRead("hookside hooks explain", stderr)
	if err != nil {
		fmt.Fprintln(stderr, "hookside hooks explain:", err)
		return exitError
	}
	defer s.Close()
	var x runner.Explanation
	if sf.profile == runner.ProfileClaude {
		// ExplainClaude explains event itself (Session.Explain) and
		// tests the input against it.
		raw, err := claudeExplainInput(in.body, inputPath, tool)
		if err == nil {
			x, err = s.ExplainClaude(event, raw)
		}
		if err != nil {
			fmt.Fprintln(stderr, "hookside hooks explain:", in.locate(err))
			return exitError
		}
	} else {
		x = s.Explain(event, tool)
	}
	// The environment layer is read when the session opens; its warning is
	// not among the configuration's diagnostics Explain re-reads.
	_, envDiags := runner.EnvSwitch()
	x.Diagnostics = slices.Concat(envDiags, sf.userDirDiagnostics(), x.Diagnostics)
	if asJSON {
		writeJSON(stdout, x)
		return exitOK
	}
	printDiagnostics(stderr, x.Diagnostics)
	printExplanation(stdout, x)
	return exitOK
}

// printExplanation prints an explanation for people: one block per hook.
func printExplanation(w io.Writer, x runner.Explanation) {
	subject := x.Event
	if x.Tool != "" {
		subject += " (tool " + x.Tool + ")"
	}
	n := 0
	for _, e := range x.Hooks {
		if e.WouldRun {
			n++
		}
	}
	fmt.Fprintf(w, "profile %s, %s: %d of %d configured hook(s) would run\n", x.Profile, subject, n, len(x.Hooks))
	for _, e := range x.Hooks {
		verdict := "skip"
		if e.WouldRun {
			verdict = fmt.Sprintf("run #%d", e.Order)
		}
		m := "*"
		if e.Matcher != nil {
			m = dispText(*e.Matcher)
		}
		cmd := dispCommand(e.Command, e.Args)
		where := dispText(e.Source.Path)
		if e.Source.At != "" {
			where = dispText(e.Source.At)
		}
		fmt.Fprintf(w, "%-7s %-9s %-18s matcher=%-12s %s\n", verdict, e.Source.Kind, e.Event, m, cmd)
		fmt.Fprintf(w, "        from %s", where)
		if e.MatcherIndex >= 0 {
			fmt.Fprintf(w, " [%d]", e.MatcherIndex)
			if e.HookIndex >= 0 {
				fmt.Fprintf(w, "[%d]", e.HookIndex)
			}
		}
		fmt.Fprintln(w)
		if e.TrustState != "" {
			fmt.Fprintf(w, "        trust: %s\n", e.TrustState)
		}
		if e.Reason != "" {
			fmt.Fprintf(w, "        why not: %s", e.Reason)
			if e.Detail != "" {
				fmt.Fprintf(w, " — %s", e.Detail)
			}
			fmt.Fprintln(w)
		} else if e.Detail != "" {
			fmt.Fprintf(w, "        note: %s\n", e.Detail)
		}
	}
}
