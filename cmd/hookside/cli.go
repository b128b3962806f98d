package main

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/rpc"
	"github.com/hookside/hookside/runner"
)

// The command tree is defined once with cobra: --help, the shell
// completions (`hookside completion bash|zsh|fish|powershell`) and the man
// pages (`hookside man`) all come from it.

func init() {
	// Subcommands are listed in the order they are added (most used first).
	cobra.EnableCommandSorting = false
	// hookside is spawned by hosts, also on Windows from Explorer-started
	// apps: never stop to show cobra's "this is a command line tool" splash.
	cobra.MousetrapHelpText = ""
}

// verbose is set by -v/--verbose, which every command takes.
var verbose bool

// exitStatus carries a command's exit status through cobra's RunE.
type exitStatus int

func (e exitStatus) Error() string { return fmt.Sprintf("exit status %d", int(e)) }

// annUsageExit is the annotation holding a command's exit status for usage
// errors when it is not exitUsage (`hooks run` and `hooks explain`: 1,
// because 2 means "blocked" there).
const annUsageExit = "hookside.usageExit"

// usageExitOf is cmd's exit status for a flag or argument error.
func usageExitOf(cmd *cobra.Command) int {
	if cmd != nil && cmd.Annotations[annUsageExit] == "1" {
		return exitError
	}
	return exitUsage
}

// setRun makes body cmd's action; body's result is the exit status.
func setRun(cmd *cobra.Command, body func(args []string) int) *cobra.Command {
	cmd.RunE = func(_ *cobra.Command, args []string) error {
		if code := body(args); code != exitOK {
			return exitStatus(code)
		}
		return nil
	}
	return cmd
}

// execute runs root with args. A flag or argument error cobra finds is
// printed with the command's path and ends with that command's usage status;
// under --json, a command marked annJSONErrors also prints it on stdout
// (jsonUsageError).
func execute(root *cobra.Command, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || !strings.HasPrefix(args[0], cobra.ShellCompRequestCmd) {
		// Not while completing: cobra parses the flags there more than
		// once, and a half-typed line may hold anything.
		onceFlags(root)
	}
	root.SetArgs(args)
	cmd, err := root.ExecuteC()
	var st exitStatus
	var uc unknownCommandError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &st):
		return int(st)
	case errors.As(err, &uc):
		fmt.Fprintln(stderr, uc.Error())
		jsonUsageError(uc.cmd, args, stdout, uc.Error(), uc)
		return exitUsage
	}
	path := "hookside"
	if cmd != nil {
		path = cmd.CommandPath()
	}
	msg := fmt.Sprintf("%s: %v (see %s --help)", path, err, path)
	fmt.Fprintln(stderr, msg)
	jsonUsageError(cmd, args, stdout, msg, err)
	return usageExitOf(cmd)
}

// annJSONErrors marks a command whose --json failures print an error object
// on stdout that execute prints too for the flag and argument errors cobra
// finds before the command runs. Its value is the object's shape:
// jsonErrorsMessage (hooks trust and its actions, hooks list, run and
// explain: writeMessageJSONError) or jsonErrorsV2 (v2
// definitions, bindings and runs: writeV2FlagError).
const annJSONErrors = "hookside.jsonErrors"

// The shapes of annJSONErrors.
const (
	jsonErrorsMessage = "message" // {"error": {"message"}}
	jsonErrorsV2      = "v2"      // {"error": {code, message, data}}
)

// jsonUsageError prints, when cmd is marked annJSONErrors and args ask for
// --json, the error object of err on stdout, msg being what went to stderr.
func jsonUsageError(cmd *cobra.Command, args []string, stdout io.Writer, msg string, err error) {
	if cmd == nil || !jsonAsked(args) {
		return
	}
	switch cmd.Annotations[annJSONErrors] {
	case jsonErrorsMessage:
		writeMessageJSONError(stdout, cmd.CommandPath()+": ", msg)
	case jsonErrorsV2:
		writeV2FlagError(stdout, strings.TrimPrefix(msg, cmd.CommandPath()+": "), err)
	}
}

// jsonAsked reports whether args turn --json on (the last of --json and
// --json=BOOL before a "--" wins), wherever it stands: after a bad flag,
// cobra has not parsed it.
func jsonAsked(args []string) bool {
	on := false
	for _, a := range args {
		if a == "--" {
			break
		}
		if a == "--json" {
			on = true
		} else if v, ok := strings.CutPrefix(a, "--json="); ok {
			if b, err := strconv.ParseBool(v); err == nil {
				on = b
			}
		}
	}
	return on
}

// newRootCmd is the whole command tree, writing to stdout and stderr.
func newRootCmd(stdout, stderr io.Writer) *cobra.Command {
	var showVersion bool
	root := &cobra.Command{
		Use:   "hookside",
		Short: "hookside runs lifecycle hooks (PreToolUse, Stop, …) for agent hosts",
		Long: "hookside runs lifecycle hooks (PreToolUse, Stop, …) for agent hosts: as a JSON-RPC sidecar\n" +
			"(app-server) and from the shell (hooks, v2).\n\n" +
			"Every command takes --help and -v/--verbose (debug log on stderr); the commands that read\n" +
			"configuration or state take --home DIR (default $HOOKSIDE_HOME or ~/.hookside).",
		Args:              cobra.ArbitraryArgs,
		SilenceErrors:     true,
		SilenceUsage:      true,
		DisableAutoGenTag: true,
		// "Did you mean …?" for a mistyped command within 2 edits.
		SuggestionsMinimumDistance: 2,
		PersistentPreRun: func(*cobra.Command, []string) {
			if verbose {
				slog.SetDefault(slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelDebug})))
			}
		},
	}
	root.SetOut(stdout)
	root.SetErr(stderr)
	// The subcommands inherit it: `v2 bogus --home H` names the unknown
	// command, not the flag (the flags live on the leaves).
	root.SetFlagErrorFunc(unknownCommandFirst)
	root.PersistentFlags().BoolVarP(&verbose, "verbose", "v", false,
		"log to stderr what is loaded from where, admission decisions and hook processes (debug level)")
	root.Flags().BoolVar(&showVersion, "version", false, "print the version line (as hookside version)")
	setRun(root, func(args []string) int {
		switch {
		case showVersion && len(args) == 0:
			return printVersion(stdout, false)
		case len(args) == 0:
			_ = root.Help()
			return exitUsage
		}
		fmt.Fprintf(stderr, "hookside: unknown command %q\n", args[0])
		if s := root.SuggestionsFor(args[0]); len(s) > 0 {
			fmt.Fprintf(stderr, "Did you mean %s?\n", strings.Join(s, " or "))
		}
		fmt.Fprintln(stderr)
		root.SetOut(stderr)
		_ = root.Help()
		return exitUsage
	})
	root.AddCommand(
		appServerCmd(stdout, stderr),
		hooksCmd(stdout, stderr),
		v2Cmd(stdout, stderr),
		protocolCmd(stdout, stderr),
		versionCmd(stdout, stderr),
	)
	root.AddCommand(manCmd(root, stdout, stderr))
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		if c.Name() == "completion" {
			groupRun(c, stderr)
		}
	}
	useFromFlags(root)
	root.SetUsageTemplate(usageTemplate(root))
	return root
}

// groupCmd is a command that only holds subcommands: without one it prints
// its help to stderr and exits 2; an unknown one is named.
func groupCmd(use, short, long string, stdout, stderr io.Writer, subs ...*cobra.Command) *cobra.Command {
	cmd := &cobra.Command{Use: use, Short: short, Long: long}
	cmd.AddCommand(subs...)
	return groupRun(cmd, stderr)
}

// groupRun gives the group cmd groupCmd's action: its help and exit 2
// without a subcommand, the subcommands named for an unknown one.
func groupRun(cmd *cobra.Command, stderr io.Writer) *cobra.Command {
	cmd.Args, cmd.DisableFlagsInUseLine = cobra.ArbitraryArgs, true
	return setRun(cmd, func(args []string) int {
		if len(args) > 0 {
			fmt.Fprintln(stderr, unknownCommandError{cmd, args[0]}.Error())
			return exitUsage
		}
		cmd.SetOut(stderr)
		_ = cmd.Help()
		return exitUsage
	})
}

// unknownCommandError is an argument of a command with subcommands that
// names none of them: "PATH: unknown command "NAME" (want A, B, …)".
type unknownCommandError struct {
	cmd  *cobra.Command
	name string
}

func (e unknownCommandError) Error() string {
	var names []string
	for _, s := range e.cmd.Commands() {
		if s.IsAvailableCommand() {
			names = append(names, s.Name())
		}
	}
	word, list := "command", strings.Join(names, ", ")
	if w := e.cmd.Annotations[annSubWord]; w != "" && len(names) > 1 {
		word, list = w, strings.Join(names[:len(names)-1], ", ")+" or "+names[len(names)-1]
	}
	msg := fmt.Sprintf("%s: unknown %s %q (want %s)", e.cmd.CommandPath(), word, e.name, list)
	if e.cmd.SuggestionsMinimumDistance <= 0 {
		e.cmd.SuggestionsMinimumDistance = 2 // as the root's: within 2 edits
	}
	if s := e.cmd.SuggestionsFor(e.name); len(s) > 0 {
		msg += "\nDid you mean " + strings.Join(s, " or ") + "?"
	}
	return msg
}

// annSubWord is the annotation naming what a command's subcommands are
// called in its unknownCommandError ("action": hooks trust), the list then
// ending "… or LAST"; without it they are commands.
const annSubWord = "hookside.subWord"

// unknownCommandFirst is the flag error function of every command: when
// cmd has subcommands and the first positional argument before the bad flag
// names none of them, that argument is the error (an unknown command, as
// without the flag), else err is.
func unknownCommandFirst(cmd *cobra.Command, err error) error {
	if !cmd.HasAvailableSubCommands() {
		return err
	}
	if pos := cmd.Flags().Args(); len(pos) > 0 {
		return unknownCommandError{cmd, pos[0]}
	}
	return err
}

// noArgs reports (on stderr) a positional argument a command does not
// take; true means the caller must return its usage status.
func noArgs(cmd *cobra.Command, args []string, stderr io.Writer) bool {
	if len(args) == 0 {
		return false
	}
	fmt.Fprintf(stderr, "%s: unexpected argument %q (see --help)\n", cmd.CommandPath(), args[0])
	return true
}

func protocolCmd(stdout, stderr io.Writer) *cobra.Command {
	schema := &cobra.Command{
		Use:   "schema",
		Short: "print the protocol's JSON Schema",
		Long: "Print the JSON Schema (draft 2020-12) of the whole protocol: every method's params and result,\n" +
			"every notification and every server-to-client request (docs/protocol.md).",
	}
	setRun(schema, func(args []string) int {
		if noArgs(schema, args, stderr) {
			return exitUsage
		}
		_, _ = stdout.Write(rpc.ProtocolSchema)
		return exitOK
	})
	return groupCmd("protocol", "print the protocol's JSON Schema (protocol schema)",
		"Describe the JSON-RPC protocol of app-server.", stdout, stderr, schema)
}

// fixedValues completes a flag from a fixed list (no file names).
func fixedValues(vals ...string) cobra.CompletionFunc {
	return cobra.FixedCompletions(vals, cobra.ShellCompDirectiveNoFileComp)
}

// completeEvents completes --event with the events of the --profile given
// (zcode and spark: the seven shell-hook events; claude: every Claude Code
// event), and --profile and --policy when cmd has them.
func completeEvents(cmd *cobra.Command) {
	_ = cmd.RegisterFlagCompletionFunc("event", func(c *cobra.Command, _ []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if p, _ := c.Flags().GetString("profile"); p == runner.ProfileClaude {
			return hook.ClaudeEvents, cobra.ShellCompDirectiveNoFileComp
		}
		return hook.Events, cobra.ShellCompDirectiveNoFileComp
	})
	completeSession(cmd)
}

// completeSession adds the completions of the session flags cmd has.
func completeSession(cmd *cobra.Command) {
	fs := cmd.Flags()
	if fs.Lookup("profile") != nil {
		_ = cmd.RegisterFlagCompletionFunc("profile", fixedValues(hook.ProfileNames()...))
	}
	if fs.Lookup("policy") != nil {
		_ = cmd.RegisterFlagCompletionFunc("policy", fixedValues("user_decides", "deny", "allow_trusted_only"))
	}
	for _, name := range []string{"home", "cwd", "plugin-dir", "spark-user-dir", "claude-home"} {
		if fs.Lookup(name) != nil {
			_ = cmd.MarkFlagDirname(name)
		}
	}
	for _, name := range []string{"user-config", "project-config", "input", "transcript-path"} {
		if fs.Lookup(name) != nil {
			_ = cmd.MarkFlagFilename(name)
		}
	}
}
