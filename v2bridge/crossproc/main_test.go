// Package crossproc tests the V2 pipeline across real hookside processes
// sharing one home: the binary is built once (TestMain) and driven over
// pipes, the way a host and a shell use it. The tests live in their own
// test binary so nothing else in it adopts and reaps their children.
package crossproc

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// hooksideBin is the hookside binary under test.
var hooksideBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "hookside-crossproc-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	hooksideBin = filepath.Join(dir, "hookside")
	if runtime.GOOS == "windows" {
		hooksideBin += ".exe"
	}
	build := exec.Command("go", "build", "-o", hooksideBin, "github.com/hookside/hookside/cmd/hookside")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building hookside:", err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
