package main

import (
	"bytes"
	"io"
	"strings"

	"github.com/spf13/cobra"
)

// The {"error": {"message"}} objects of `hooks trust …`, `hooks list`,
// `hooks run` and `hooks explain` under --json (the shape
// jsonErrorsMessage; docs/protocol.md "hooks list, run and explain
// --json").

// writeMessageJSONError prints on stdout {"error": {"message": M}}, M being
// stderrText without the diagnostic lines ("hookside: …", which the
// command printed before it failed), each other line without the prefix
// ("hookside hooks run: "), trimmed; all of stderrText trimmed when that
// leaves nothing.
func writeMessageJSONError(stdout io.Writer, prefix, stderrText string) {
	var lines []string
	for l := range strings.SplitSeq(strings.TrimSpace(stderrText), "\n") {
		if strings.HasPrefix(l, "hookside: ") {
			continue
		}
		lines = append(lines, strings.TrimPrefix(l, prefix))
	}
	msg := strings.TrimSpace(strings.Join(lines, "\n"))
	if msg == "" {
		msg = strings.TrimSpace(stderrText)
	}
	writeJSON(stdout, map[string]any{"error": map[string]any{"message": msg}})
}

// messageJSONErrors runs run, cmd's action; when asJSON and it fails (an
// exit status other than 0) having printed nothing on stdout, it prints
// there the error object of what it wrote on stderr
// (writeMessageJSONError, the prefix being cmd's path and ": ", which
// begins its messages, as for the flag errors execute prints). stderr
// gets everything as without --json; the exit status is run's.
func messageJSONErrors(cmd *cobra.Command, asJSON bool, stdout, stderr io.Writer, run func(stdout, stderr io.Writer) int) int {
	if !asJSON {
		return run(stdout, stderr)
	}
	out := &countWriter{w: stdout}
	var msg bytes.Buffer
	code := run(out, io.MultiWriter(stderr, &msg))
	if code != exitOK && out.n == 0 {
		writeMessageJSONError(stdout, cmd.CommandPath()+": ", msg.String())
	}
	return code
}

// countWriter counts the bytes written through it.
type countWriter struct {
	w io.Writer
	n int
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += n
	return n, err
}
