package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/hookside/hookside/runner"
)

// signalContext is a context cancelled by the first SIGINT or SIGTERM,
// its cause "interrupted by SIGINT" (or SIGTERM: a hook it stops ends with
// the error "cancelled: interrupted by SIGINT", logged at INFO as "hook
// cancelled"); caught returns that signal (nil before one came). stop ends
// the watching.
func signalContext() (ctx context.Context, stop func(), caught func() os.Signal) {
	ctx, cancel := context.WithCancelCause(context.Background())
	sigc := make(chan os.Signal, 1)
	signal.Notify(sigc, os.Interrupt, syscall.SIGTERM)
	got := make(chan os.Signal, 1)
	go func() {
		select {
		case sig := <-sigc:
			got <- sig
			cancel(fmt.Errorf("interrupted by %s", signalName(sig)))
		case <-ctx.Done():
		}
	}()
	var sig os.Signal
	caught = func() os.Signal {
		if sig == nil && ctx.Err() != nil {
			select {
			case sig = <-got:
			default:
			}
		}
		return sig
	}
	return ctx, func() { signal.Stop(sigc); cancel(nil) }, caught
}

// signalName is sig as shells name it (SIGINT, SIGTERM).
func signalName(sig os.Signal) string {
	switch sig {
	case os.Interrupt:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	}
	return sig.String()
}

// signalExit is the exit status after sig, as shells give it: 128 + its
// number (SIGINT 130, SIGTERM 143).
func signalExit(sig os.Signal) int {
	if n, ok := sig.(syscall.Signal); ok {
		return 128 + int(n)
	}
	return exitInterrupted
}

// finishAsync ends `hooks run`'s background (async) hooks: it waits for
// them (waitAsync) unless SIGINT/SIGTERM (ctx, caught) comes first, in
// which case it names the ones still running, stops them (Session.Close)
// and returns signalExit of the signal; otherwise 0. Either way each async
// hook's outcome is a line on stderr (asyncLine).
func finishAsync(ctx context.Context, s *runner.Session, caught func() os.Signal, stderr io.Writer) int {
	if len(s.AsyncHooks()) == 0 {
		return 0
	}
	waitAsync(ctx, s, stderr)
	sig := caught()
	stopped := false
	if sig != nil {
		var running []runner.AsyncHook
		for _, a := range s.AsyncHooks() {
			if a.Running {
				running = append(running, a)
			}
		}
		if len(running) > 0 {
			stopped = true
			fmt.Fprintf(stderr, "hookside hooks run: %s: stopping %d async hook(s) still running\n", signalName(sig), len(running))
		}
		s.Close()
	}
	for _, a := range s.AsyncHooks() {
		fmt.Fprintln(stderr, asyncLine(a, sig))
	}
	if stopped {
		return signalExit(sig)
	}
	return 0
}

// waitAsync waits for the session's background (async) hooks, saying so
// on stderr when they do not end at once; SIGINT/SIGTERM (ctx) stops the
// wait.
func waitAsync(ctx context.Context, s *runner.Session, stderr io.Writer) {
	quick, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
	ended := s.WaitAsync(quick)
	cancel()
	if ended || ctx.Err() != nil {
		return
	}
	fmt.Fprintln(stderr, "hookside hooks run: waiting for the async hooks to end (each within its timeout; Ctrl-C stops them)")
	s.WaitAsync(ctx)
}

// asyncLine is one async hook's outcome: "hookside hooks run: async hook
// exit 3 after 201 ms: COMMAND" (or "timed out", "stopped by SIGINT",
// "could not start (…)"); sig is the signal that stopped the stopped ones.
func asyncLine(a runner.AsyncHook, sig os.Signal) string {
	how := fmt.Sprintf("exit %d", a.ExitCode)
	switch {
	case a.StartError != "":
		how = "could not start (" + dispText(a.StartError) + ")"
	case a.TimedOut:
		how = "timed out"
	case a.Stopped && sig != nil:
		how = "stopped by " + signalName(sig)
	case a.Stopped:
		how = "stopped"
	}
	return fmt.Sprintf("hookside hooks run: async hook %s after %d ms: %s", how, a.DurationMs, dispCommand(a.Command, a.Args))
}
