package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/hookside/hookside/internal/steps"
	"github.com/hookside/hookside/rpc"
	"github.com/hookside/hookside/runner/exec"
)

func appServerCmd(stdout, stderr io.Writer) *cobra.Command {
	var stdio bool
	var framing, home, level, format string
	cmd := &cobra.Command{
		Use:   "app-server",
		Short: "serve JSON-RPC 2.0 to an agent host (--stdio)",
		Long: "Serve JSON-RPC 2.0 (protocol \"1\", docs/protocol.md) on stdin/stdout. Logs go to stderr.\n" +
			"Exit status: 0 after shutdown then exit, or when stdin ends; 1 after exit without shutdown,\n" +
			"or when the host closed stdout (a frame could not be written); 2 a usage error (no --stdio,\n" +
			"a flag or argument error, an unknown --framing, --log-level or --log-format); 128+signal\n" +
			"when SIGTERM, SIGINT or SIGHUP ended it (143, 130, 129).",
	}
	fs := cmd.Flags()
	fs.BoolVar(&stdio, "stdio", false, "speak JSON-RPC on stdin/stdout (required)")
	fs.StringVar(&framing, "framing", "ndjson", "message `FRAMING`: ndjson (one JSON object per line) or content-length (LSP headers)")
	fs.StringVar(&home, "home", "", "hookside home `DIR` (default $HOOKSIDE_HOME or ~/.hookside)")
	fs.StringVar(&level, "log-level", "info", "log `LEVEL`: debug, info, warn, error")
	fs.StringVar(&format, "log-format", "text", "log `FORMAT`: text or json")
	flagRequired(fs, "stdio")
	flagUse(fs, "framing", "[--framing ndjson|content-length]")
	flagUse(fs, "log-level", "[--log-level debug|info|warn|error]")
	flagUse(fs, "log-format", "[--log-format text|json]")
	_ = cmd.RegisterFlagCompletionFunc("framing", fixedValues("ndjson", "content-length"))
	_ = cmd.RegisterFlagCompletionFunc("log-level", fixedValues("debug", "info", "warn", "error"))
	_ = cmd.RegisterFlagCompletionFunc("log-format", fixedValues("text", "json"))
	_ = cmd.MarkFlagDirname("home")
	return setRun(cmd, func(args []string) int {
		if noArgs(cmd, args, stderr) {
			return exitUsage
		}
		if verbose && !fs.Changed("log-level") {
			level = "debug"
		}
		return runAppServer(stdio, framing, home, level, format, stdout, stderr)
	})
}

func runAppServer(stdio bool, framing, home, level, format string, stdout, stderr io.Writer) int {
	if !stdio {
		fmt.Fprintln(stderr, "hookside app-server: --stdio is required (the only transport)")
		return exitUsage
	}
	fr, err := rpc.ParseFraming(framing)
	if err != nil {
		fmt.Fprintln(stderr, "hookside app-server:", err)
		return exitUsage
	}
	log, err := newLogger(stderr, level, format)
	if err != nil {
		fmt.Fprintln(stderr, "hookside app-server:", err)
		return exitUsage
	}
	slog.SetDefault(log)
	if err := exec.EnableSubreaper(); err != nil {
		log.Warn("cannot become the subreaper of hook processes: a hook that detaches with setsid may outlive it", "err", err)
	}
	defer exec.ReapEscapees()
	// The janitor now rather than with the first hook: this binary
	// re-executed as hookside-janitor (empty environment, in /).
	if err := exec.EnableJanitor(nil); err != nil {
		log.Warn("cannot start the janitor: hooks may outlive hookside if it is killed", "err", err)
	}
	defer exec.CloseJanitor()
	// SIGTERM, SIGINT and SIGHUP end the server cleanly: hooks are killed,
	// temporary files removed; the exit status is 128+signal.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	defer signal.Stop(sigs)
	// A write to stdout or stderr after the host closed its end fails with
	// EPIPE instead of killing the process with SIGPIPE (the Go runtime's
	// rule for fds 1 and 2 unless SIGPIPE is notified): rpc.Serve then shuts
	// down cleanly. Notified, not ignored: hooks start with the default
	// SIGPIPE action, an ignored one they would inherit. Nothing reads pipes;
	// a full channel drops the signal.
	pipes := make(chan os.Signal, 1)
	signal.Notify(pipes, syscall.SIGPIPE)
	defer signal.Stop(pipes)
	var got atomic.Value
	go func() {
		if sig, ok := <-sigs; ok {
			got.Store(sig)
			log.Info("terminating", "signal", sig.String())
			cancel()
		}
	}()
	code := rpc.Serve(ctx, os.Stdin, stdout, rpc.Options{
		Framing: fr, Home: home, Version: version, Logger: log,
	})
	steps.Flush()
	if sig, ok := got.Load().(syscall.Signal); ok {
		return 128 + int(sig)
	}
	return code
}
