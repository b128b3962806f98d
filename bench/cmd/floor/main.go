// Command floor is the spawn floor of the hookside benchmarks: the least a
// runner can do for one hook. It is driven like hookside (a long-lived
// process; one request line in, one answer line out) so that the pipe round
// trip is the same for both, and for each request it only fork/execs the
// hook program, writes the request line to the hook's stdin, keeps at most
// -cap bytes of its stdout and waits. No JSON, no process group, no stderr
// pipe, no notifications.
//
// With -core it runs each hook through hookside's own process-execution
// core instead (runner/exec's Run, with the Spec the runner gives a process
// hook: process group, run token, janitor, stdout and stderr capped,
// deadline with SIGTERM then SIGKILL after exec.KillGrace; see coreRunner),
// still without JSON-RPC, config, matching or the runner's answer: the
// "exec core" of the benchmarks, which tells the cost of Go and of that
// core from the cost of hookside's protocol and runner layers. The line
// protocol is the same in both modes.
//
//	floor [-core] [-n N] [-parallel] [-timeout D] [-cap BYTES] -- prog [args…]
package main

import (
	"bufio"
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"
)

// capped keeps the first max bytes written and discards the rest.
type capped struct {
	buf []byte
	max int
}

func (c *capped) Write(p []byte) (int, error) {
	if room := c.max - len(c.buf); room > 0 {
		c.buf = append(c.buf, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

func main() {
	n := flag.Int("n", 1, "hooks per request")
	parallel := flag.Bool("parallel", false, "run the hooks of one request at once")
	timeout := flag.Duration("timeout", time.Minute, "per-hook deadline (SIGKILL; with -core SIGTERM to the group, SIGKILL after exec.KillGrace)")
	maxOut := flag.Int("cap", 32768, "stdout bytes kept per hook (with -core: stdout and stderr, each)")
	core := flag.Bool("core", false, "run each hook through hookside's runner/exec core (exec.Run) instead of os/exec")
	flag.Parse()
	argv := flag.Args()
	if len(argv) == 0 {
		fmt.Fprintln(os.Stderr, "floor: name the hook program after --")
		os.Exit(2)
	}
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	out := bufio.NewWriter(os.Stdout)
	outs := make([]capped, *n)
	var runOne func(i int, stdin []byte)
	if *core {
		var stop func()
		var err error
		if runOne, stop, err = coreRunner(argv, *timeout, *maxOut, outs); err != nil {
			fmt.Fprintln(os.Stderr, "floor -core:", err)
			os.Exit(2)
		}
		defer stop()
	} else {
		runOne = execRunner(argv, *timeout, *maxOut, outs)
	}
	serve(in, out, runOne, *n, *parallel, outs)
}

// execRunner is the default hook runner: os/exec with a context deadline
// (SIGKILL), stdin from the request line, stdout capped at maxOut into
// outs[i], no stderr pipe.
func execRunner(argv []string, timeout time.Duration, maxOut int, outs []capped) func(i int, stdin []byte) {
	return func(i int, stdin []byte) {
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		defer cancel()
		cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
		cmd.Stdin = bytes.NewReader(stdin)
		outs[i] = capped{buf: outs[i].buf[:0], max: maxOut}
		cmd.Stdout = &outs[i]
		_ = cmd.Run()
	}
}

// serve answers request lines until EOF: each runs n hooks (at once with
// parallel) and is answered with the last hook's trimmed stdout, or {}
// when that is empty or longer than 4096 bytes.
func serve(in *bufio.Reader, out *bufio.Writer, runOne func(i int, stdin []byte), n int, parallel bool, outs []capped) {
	for {
		line, err := in.ReadBytes('\n')
		if err != nil {
			if err != io.EOF {
				fmt.Fprintln(os.Stderr, "floor:", err)
			}
			return
		}
		if parallel && n > 1 {
			var wg sync.WaitGroup
			for i := range n {
				wg.Go(func() { runOne(i, line) })
			}
			wg.Wait()
		} else {
			for i := range n {
				runOne(i, line)
			}
		}
		ans := bytes.TrimSpace(outs[n-1].buf)
		if len(ans) == 0 || len(ans) > 4096 {
			ans = []byte("{}")
		}
		out.Write(ans)
		out.WriteByte('\n')
		out.Flush()
	}
}
