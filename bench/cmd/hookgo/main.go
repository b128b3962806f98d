// Command hookgo is the benchmark hook in Go, used by benchrun only when no
// C compiler is found (bench/hook/hook.c is the hook of record: it starts in
// a fraction of a Go program's start-up time). Same modes as hook.c.
package main

import (
	"io"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"
)

func main() {
	mode, arg := "", ""
	if len(os.Args) > 1 {
		mode = os.Args[1]
	}
	if len(os.Args) > 2 {
		arg = os.Args[2]
	}
	switch mode {
	case "capture":
		f, err := os.Create(arg)
		if err != nil {
			os.Exit(1)
		}
		_, _ = io.Copy(f, os.Stdin)
		_ = f.Close()
		_, _ = os.Stdout.WriteString("{}\n")
		return
	case "ignoreterm":
		signal.Ignore(syscall.SIGTERM)
	}
	_, _ = io.Copy(io.Discard, os.Stdin)
	switch mode {
	case "spew":
		left, _ := strconv.ParseInt(arg, 10, 64)
		buf := make([]byte, 65536)
		for i := range buf {
			buf[i] = 'x'
		}
		for left > 0 {
			n := min(left, int64(len(buf)))
			w, err := os.Stdout.Write(buf[:n])
			if err != nil {
				os.Exit(1)
			}
			left -= int64(w)
		}
		return
	case "sleep", "ignoreterm":
		for {
			time.Sleep(time.Hour)
		}
	case "sleepms":
		ms, _ := strconv.Atoi(arg)
		time.Sleep(time.Duration(ms) * time.Millisecond)
	}
	_, _ = os.Stdout.WriteString("{}\n")
}
