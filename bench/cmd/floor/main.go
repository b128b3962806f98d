// Command floor is the spawn floor of the hookside benchmarks: the least a
// runner can do for one hook. It is driven like hookside (a long-lived
// process; one request line in, one answer line out) so that the pipe round
// trip is the same for both, and for each request it only fork/execs the
// hook program, writes the request line to the hook's stdin, keeps at most
// -cap bytes of its stdout and waits. No JSON, no process group, no stderr
// pipe, no notifications.
//
// With -core each hook is run by hookside's own process core instead
// (runner/exec.Run: the process group, both pipes capped at -cap bytes, the
// deadline with SIGTERM then SIGKILL to the group, the reaping of the
// group), with the program path resolved once as the runner does: the Go
// runtime plus what hookside does to run one process, without its protocol
// and runner layers. Figure 1 reports it as "exec core".
//
//	floor [-n N] [-parallel] [-core] [-timeout D] [-cap BYTES] -- prog [args…]
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

	hexec "github.com/hookside/hookside/runner/exec"
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
	timeout := flag.Duration("timeout", time.Minute, "per-hook deadline (SIGKILL)")
	maxOut := flag.Int("cap", 32768, "stdout bytes kept per hook")
	core := flag.Bool("core", false, "run each hook with hookside's process core (runner/exec.Run) instead of os/exec")
	flag.Parse()
	argv := flag.Args()
	if len(argv) == 0 {
		fmt.Fprintln(os.Stderr, "floor: name the hook program after --")
		os.Exit(2)
	}
	path, err := exec.LookPath(argv[0])
	if err != nil {
		fmt.Fprintln(os.Stderr, "floor:", err)
		os.Exit(2)
	}
	env := os.Environ()
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	out := bufio.NewWriter(os.Stdout)
	outs := make([]capped, *n)
	runOne := func(i int, stdin []byte) {
		if *core {
			r := hexec.Run(context.Background(), hexec.Spec{Argv: argv, Path: path, Env: env, Stdin: stdin,
				Timeout: *timeout, KillGrace: hexec.KillGrace, MaxOutputBytes: *maxOut})
			outs[i].buf = r.Stdout
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), *timeout)
		defer cancel()
		cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
		cmd.Stdin = bytes.NewReader(stdin)
		outs[i] = capped{buf: outs[i].buf[:0], max: *maxOut}
		cmd.Stdout = &outs[i]
		_ = cmd.Run()
	}
	for {
		line, err := in.ReadBytes('\n')
		if err != nil {
			if err != io.EOF {
				fmt.Fprintln(os.Stderr, "floor:", err)
			}
			return
		}
		if *parallel && *n > 1 {
			var wg sync.WaitGroup
			for i := range *n {
				wg.Go(func() { runOne(i, line) })
			}
			wg.Wait()
		} else {
			for i := range *n {
				runOne(i, line)
			}
		}
		ans := bytes.TrimSpace(outs[*n-1].buf)
		if len(ans) == 0 || len(ans) > 4096 {
			ans = []byte("{}")
		}
		out.Write(ans)
		out.WriteByte('\n')
		out.Flush()
	}
}
