// Command hookside runs lifecycle hooks for agent hosts: as a JSON-RPC
// sidecar (`hookside app-server --stdio`) and from the shell (`hookside
// hooks run|list|trust`). See README.md and docs/protocol.md.
package main

import (
	"errors"
	"flag"
	"fmt"
	"github.com/hookside/hookside/rpc"
	"io"
	"log/slog"
	"os"
	"strings"
)

// Exit statuses shared by the subcommands.
const (
	exitOK    = 0
	exitError = 1
	exitUsage = 2
)

// command is one subcommand.
type command struct {
	name    string
	summary string
	run     func(args []string, stdout, stderr io.Writer) int
}

func commands() []command {
	return []command{
		{"app-server", "serve JSON-RPC 2.0 to an agent host (--stdio)", runAppServer},
		{"hooks", "run, list and trust hooks from the shell", runHooks},
		{"v2", "Hooks V2 runs and events from the shell (runs list|get|retry|cancel, emit)", runV2},
		{"protocol", "print the protocol's JSON Schema (protocol schema)", runProtocol},
		{"version", "print the version, commit, protocol version, Go version and target (--json)", runVersion},
	}
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || isHelp(args[0]) {
		usage(stdout)
		if len(args) == 0 {
			return exitUsage
		}
		return exitOK
	}
	if args[0] == janitorMode {
		return runJanitor(stderr)
	}
	if args[0] == "--version" {
		return runVersion(nil, stdout, stderr)
	}
	// Library warnings (a failed hook, …) go to stderr; app-server replaces
	// this with the logger its --log-level/--log-format describe.
	slog.SetDefault(slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn})))
	for _, c := range commands() {
		if c.name == args[0] {
			return c.run(args[1:], stdout, stderr)
		}
	}
	fmt.Fprintf(stderr, "hookside: unknown command %q\n\n", args[0])
	usage(stderr)
	return exitUsage
}

func isHelp(a string) bool { return a == "-h" || a == "--help" || a == "help" }

func usage(w io.Writer) {
	fmt.Fprintln(w, "hookside runs lifecycle hooks (PreToolUse, Stop, …) for agent hosts.")
	fmt.Fprintln(w, "\nUsage:\n  hookside <command> [flags]\n\nCommands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-11s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nEvery command takes --help, -v/--verbose (debug log on stderr) and --home DIR (default $HOOKSIDE_HOME or ~/.hookside).")
}

func runProtocol(args []string, stdout, stderr io.Writer) int {
	if len(args) == 1 && args[0] == "schema" {
		_, _ = stdout.Write(rpc.ProtocolSchema)
		return exitOK
	}
	if len(args) == 1 && isHelp(args[0]) {
		fmt.Fprintln(stdout, "Usage: hookside protocol schema\n\nPrint the JSON Schema (draft 2020-12) of the whole protocol: every method's params and result,\nevery notification and every server-to-client request (docs/protocol.md).")
		return exitOK
	}
	fmt.Fprintln(stderr, "Usage: hookside protocol schema")
	return exitUsage
}

// verbose is set by -v/--verbose, which every command takes.
var verbose bool

// newFlagSet returns a FlagSet whose -h prints the usage line, the summary
// and the flags to stdout; -v/--verbose switches the stderr log to debug.
func newFlagSet(name, usageLine, summary string, stdout, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	beVerbose := func(string) error {
		verbose = true
		slog.SetDefault(slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelDebug})))
		return nil
	}
	const verboseUsage = "log to stderr what is loaded from where, admission decisions and hook processes (debug level)"
	fs.BoolFunc("v", verboseUsage, beVerbose)
	fs.BoolFunc("verbose", verboseUsage, beVerbose)
	fs.Usage = func() {
		fs.SetOutput(stdout)
		fmt.Fprintf(stdout, "Usage: %s\n\n%s\n\nFlags:\n", usageLine, summary)
		fs.PrintDefaults()
		fs.SetOutput(stderr)
	}
	return fs
}

// parseFlags parses args; it returns (exit status, false) when the caller
// must return (help shown or a usage error).
func parseFlags(fs *flag.FlagSet, args []string) (int, bool) {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK, false
		}
		return exitUsage, false
	}
	return 0, true
}

// parseStrict is parseFlags for a command that takes no positional
// arguments: a stray one is a usage error.
func parseStrict(fs *flag.FlagSet, args []string, stderr io.Writer) (int, bool) {
	if code, ok := parseFlags(fs, args); !ok {
		return code, false
	}
	if extraArgs(fs, stderr) {
		return exitUsage, false
	}
	return 0, true
}

// extraArgs reports (on stderr) positional arguments a command does not take.
func extraArgs(fs *flag.FlagSet, stderr io.Writer) bool {
	if fs.NArg() == 0 {
		return false
	}
	fmt.Fprintf(stderr, "hookside %s: unexpected argument %q (see --help)\n", fs.Name(), fs.Arg(0))
	return true
}

// newLogger returns the stderr logger (stdout belongs to the protocol).
func newLogger(w io.Writer, level, format string) (*slog.Logger, error) {
	var lv slog.Level
	if err := lv.UnmarshalText([]byte(level)); err != nil {
		return nil, fmt.Errorf("--log-level: %w", err)
	}
	opts := &slog.HandlerOptions{Level: lv}
	switch strings.ToLower(format) {
	case "text", "":
		return slog.New(slog.NewTextHandler(w, opts)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(w, opts)), nil
	}
	return nil, fmt.Errorf("--log-format: want text or json, not %q", format)
}
