package proc

import (
	"bufio"
	"fmt"
	"os"
	"syscall"
	"time"

	"golang.org/x/sys/windows"
)

// osHelpers are the Windows-only helper modes.
var osHelpers = map[string]func(args []string) int{
	// breakaway: tries to start a child outside the job it runs in.
	"breakaway": func(args []string) int {
		c := helperCmd("sleep")
		c.SysProcAttr = &syscall.SysProcAttr{CreationFlags: windows.CREATE_BREAKAWAY_FROM_JOB}
		if err := c.Start(); err != nil {
			fmt.Println("refused:", err)
			return 0
		}
		fmt.Println("escaped", c.Process.Pid)
		_ = c.Process.Kill()
		return 0
	},
	// hookside: a stand-in for hookside that starts a "tree" hook in a
	// job, prints the hook's pids, and blocks until it is killed.
	"hookside": func(args []string) int {
		job, err := NewJob()
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		r, w, err := Pipe(true)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		hook := helperCmd("tree")
		hook.Stdout = w
		if err := job.Start(hook); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		w.Close()
		line, err := bufio.NewReader(r).ReadString('\n')
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		fmt.Print(line)
		time.Sleep(time.Hour)
		return 0
	},
}
