package main

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/runner"
)

// runHooksExplain is `hookside hooks explain`: every configured hook of
// every source (disabled, dropped and untrusted ones included) and whether
// it would run for one event and tool, and why not. It runs nothing.
func runHooksExplain(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("hooks explain", "hookside hooks explain --event EVENT [--tool NAME] [--input FILE|-] [--cwd DIR] [--profile zcode|spark|claude] [--json]",
		"Show every configured hook (all sources, including disabled, invalid, over-limit and untrusted\n"+
			"workspace ones) and whether it would run for EVENT (and tool NAME), and why not. Runs nothing.", stdout, stderr)
	var sf sessionFlags
	event := fs.String("event", "", "the event: "+strings.Join(hook.Events, ", "))
	tool := fs.String("tool", "", "the tool name matchers are tested against (the source on SessionStart); none = matchers not consulted")
	asJSON := fs.Bool("json", false, "print JSON ({profile, event, tool, hooks, diagnostics})")
	inputPath := fs.String("input", "", "--profile claude: the event input JSON (file, or - for stdin) its matcher field, if rules and dedupe are evaluated against; --tool sets tool_name when it has none")
	sf.registerAll(fs)
	if code, ok := parseStrict(fs, args, stderr); !ok {
		return code
	}
	events := hook.Events
	if sf.profile == runner.ProfileClaude {
		events = hook.ClaudeEvents
	}
	if *event == "" || !slices.Contains(events, *event) {
		fmt.Fprintf(stderr, "hookside hooks explain: --event must be one of %s\n", strings.Join(events, ", "))
		return exitUsage
	}
	s, _, err := sf.open()
	if err != nil {
		fmt.Fprintln(stderr, "hookside hooks explain:", err)
		return exitError
	}
	defer s.Close()
	x := s.Explain(*event, *tool)
	if sf.profile == runner.ProfileClaude {
		in, err := claudeExplainInput(*inputPath, *tool)
		if err == nil {
			x, err = s.ExplainClaude(*event, in)
		}
		if err != nil {
			fmt.Fprintln(stderr, "hookside hooks explain:", err)
			return exitError
		}
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		_ = enc.Encode(x)
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
