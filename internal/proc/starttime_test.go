package proc

import (
	"errors"
	"os"
	"testing"
	"time"
)

func TestProcStartTime(t *testing.T) {
	self, err := ProcStartTime(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	before := time.Now()
	child := helperCmd("sleep")
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = child.Process.Kill(); _ = child.Wait() }()
	got, err := ProcStartTime(child.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	after := time.Now()
	// Linux's boot time has whole seconds: allow one either side.
	if got.Before(before.Add(-time.Second)) || got.After(after.Add(time.Second)) {
		t.Errorf("child start %v, started between %v and %v", got, before, after)
	}
	if got.Before(self) {
		t.Errorf("child start %v before the parent's %v", got, self)
	}
	again, err := ProcStartTime(child.Process.Pid)
	if err != nil || !again.Equal(got) {
		t.Errorf("second reading %v, %v; first %v", again, err, got)
	}
	const noSuchPID = 0x3ffffff0 // above every pid_max, a multiple of 4 for Windows
	if _, err := ProcStartTime(noSuchPID); !errors.Is(err, ErrNoProcess) {
		t.Errorf("pid %d: %v, want ErrNoProcess", noSuchPID, err)
	}
}
