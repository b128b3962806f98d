// Command hookside runs lifecycle hooks for agent hosts: as a JSON-RPC
// sidecar (`hookside app-server --stdio`) and from the shell (`hookside
// hooks run|list|explain|trust`, `hookside v2 …`). See README.md and
// docs/protocol.md.
package main

import (
	"fmt"
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

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run executes one command line (args without the program name) and
// returns its exit status. Every call builds a fresh command tree, so tests
// can call it repeatedly in one process.
func run(args []string, stdout, stderr io.Writer) int {
	verbose = false
	// Library warnings (a failed hook, …) go to stderr; -v switches them to
	// debug, and app-server replaces this with the logger its
	// --log-level/--log-format describe.
	slog.SetDefault(slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn})))
	return execute(newRootCmd(stdout, stderr), args, stdout, stderr)
}

// newLogger returns the stderr logger (stdout belongs to the protocol).
func newLogger(w io.Writer, level, format string) (*slog.Logger, error) {
	var lv slog.Level
	if err := lv.UnmarshalText([]byte(level)); err != nil {
		return nil, fmt.Errorf("--log-level: want debug, info, warn or error, not %q", level)
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
