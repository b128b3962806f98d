//go:build unix

package proc

import (
	"fmt"
	"os"
	"strings"
	"syscall"
	"time"
)

// osHelpers are the Unix-only helper modes.
var osHelpers = map[string]func(args []string) int{
	// escape: a hook whose child leaves the hook's process group and
	// session (setsid), prints both pids, and blocks.
	"escape": func(args []string) int {
		gc := helperCmd("sleep")
		gc.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		if err := gc.Start(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		fmt.Printf("pids %d %d\n", os.Getpid(), gc.Process.Pid)
		time.Sleep(time.Hour)
		return 0
	},
	// hookside: a stand-in for hookside on a system without Pdeathsig or
	// subreaper: it starts a janitor (this binary re-executed as
	// JanitorArg0), then a "tree" hook and an "escape" hook, each in its
	// own process group with a run token, tracks both, prints
	// "janitor <pid>" and every hook pid, and blocks until killed.
	"hookside": func(args []string) int {
		cmd, err := JanitorCmd()
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		j, err := StartJanitor(cmd)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		out := []string{fmt.Sprint("janitor ", j.Pid())}
		for _, mode := range []string{"tree", "escape"} {
			tok := NewToken()
			hook := helperCmd(mode)
			hook.Env = append(hook.Env, TokenVar+"="+tok)
			hook.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
			stdout, err := hook.StdoutPipe()
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 2
			}
			if err := hook.Start(); err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 2
			}
			if err := j.Track(hook.Process.Pid, tok); err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 2
			}
			var a, b int
			if _, err := fmt.Fscanf(stdout, "pids %d %d\n", &a, &b); err != nil {
				fmt.Fprintln(os.Stderr, mode, err)
				return 2
			}
			out = append(out, fmt.Sprint(a), fmt.Sprint(b))
		}
		fmt.Println(strings.Join(out, " "))
		time.Sleep(time.Hour)
		return 0
	},
}
