package main

import (
	"fmt"
	"io"

	"github.com/hookside/hookside/output"
)

// exitBlocked is the exit status of `hooks run` when the host must not
// proceed: a hook blocked, or a hook answered continue:false.
const exitBlocked = 2

// hooksRunStatus picks the exit status of `hooks run` from a merged
// answer: exitBlocked when blocked, or when continue is false (the host
// must stop: docs/protocol.md hooks/run, continue; then the stopReason,
// terminal-safe, or "no reason given" is printed on stderr as
// "hookside hooks run: stopped (continue: false): REASON"); exitOK
// otherwise. A block is reported by the answer itself, so nothing more is
// printed for it.
func hooksRunStatus(stderr io.Writer, blocked, cont bool, stopReason *string) int {
	if blocked {
		return exitBlocked
	}
	if !cont {
		reason := "no reason given"
		if stopReason != nil && *stopReason != "" {
			reason = output.Redact(*stopReason)
		}
		fmt.Fprintf(termSafe{stderr}, "hookside hooks run: stopped (continue: false): %s\n", reason)
		return exitBlocked
	}
	return exitOK
}
