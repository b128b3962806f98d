package main

import (
	"context"
	"fmt"
	"os"
	osexec "os/exec"
	"strings"
	"time"

	"github.com/hookside/hookside/runner/exec"
)

// coreRunner is -core's hook runner: each hook goes through exec.Run,
// hookside's process-execution core, with the Spec the runner builds for a
// process hook (runner/run.go, Session.spawn): the executable resolved (here
// once, at start-up, where the runner looks it up per request), the working
// directory, an environment computed once (the runner's session
// environment: os.Environ() plus the session's variables), the request line
// as stdin, the deadline, exec.KillGrace and the output cap. Like
// `hookside app-server`, the process is first made the subreaper of its
// hooks and starts its janitor, so each hook costs what it costs there:
// its own process group, a run token, a pidfd (Linux), the janitor's
// record, stdout and stderr each capped. runOne(i, stdin) stores hook i's
// stdout in outs[i]. The returned stop undoes the process-wide set-up
// (exec.ReapEscapees, exec.CloseJanitor); errors are those of the set-up
// that the runner would not survive either (the executable not found, no
// working directory).
func coreRunner(argv []string, timeout time.Duration, maxOut int, outs []capped) (runOne func(i int, stdin []byte), stop func(), err error) {
	path := ""
	if !strings.Contains(argv[0], "/") {
		if path, err = osexec.LookPath(argv[0]); err != nil {
			return nil, nil, err
		}
	}
	dir, err := os.Getwd()
	if err != nil {
		return nil, nil, err
	}
	if err := exec.EnableSubreaper(); err != nil {
		fmt.Fprintln(os.Stderr, "floor -core: not the subreaper of the hooks:", err)
	}
	if err := exec.EnableJanitor(nil); err != nil {
		fmt.Fprintln(os.Stderr, "floor -core: no janitor:", err)
	}
	env := os.Environ()
	ctx := context.Background()
	runOne = func(i int, stdin []byte) {
		res := exec.Run(ctx, exec.Spec{
			Argv:           argv,
			Path:           path,
			Dir:            dir,
			Env:            env,
			Stdin:          stdin,
			Timeout:        timeout,
			KillGrace:      exec.KillGrace,
			MaxOutputBytes: maxOut,
		})
		outs[i] = capped{buf: res.Stdout, max: maxOut}
	}
	stop = func() {
		exec.ReapEscapees()
		_ = exec.CloseJanitor()
	}
	return runOne, stop, nil
}
