package store

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Tests in this file re-execute the test binary as a helper process
// (STORE_HELPER=claim|emit) to get real separate processes on one file.
func TestMain(m *testing.M) {
	switch os.Getenv("STORE_HELPER") {
	case "":
		os.Exit(m.Run())
	case "claim":
		helperClaim(os.Getenv("STORE_DB"), os.Getenv("STORE_OWNER"))
	case "emit":
		helperEmit(os.Getenv("STORE_DB"), os.Getenv("STORE_PREFIX"))
	default:
		fmt.Fprintln(os.Stderr, "unknown helper")
		os.Exit(2)
	}
	os.Exit(0)
}

// helperClaim claims and finishes runs until the queue stays empty, printing
// each claimed run id on its own line.
func helperClaim(path, owner string) {
	db, err := Open(path, Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer db.Close()
	ctx := context.Background()
	// Start together with the other helper: say ready, wait for "go".
	fmt.Fprintln(os.Stdout, "ready")
	bufio.NewReader(os.Stdin).ReadString('\n')
	idle := 0
	for idle < 50 {
		r, ok, err := db.ClaimRun(ctx, owner, time.Minute, time.Now(), ClaimFilter{})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		if !ok {
			idle++
			time.Sleep(2 * time.Millisecond)
			continue
		}
		idle = 0
		fmt.Fprintln(os.Stdout, r.ID)
		time.Sleep(time.Millisecond) // "work", so the two processes interleave
		if _, err := db.FinishRun(ctx, r.ID, owner, Finish{Status: RunSucceeded}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
}

// helperEmit emits forever from 8 goroutines and prints each id after Emit
// acknowledged it (one write(2) per line, so lines never interleave).
func helperEmit(path, prefix string) {
	db, err := Open(path, Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				id := fmt.Sprintf("%s-%d-%d", prefix, g, i)
				if _, err := db.Emit(context.Background(), testEvent(id, "s")); err != nil {
					fmt.Fprintln(os.Stderr, err)
					os.Exit(1)
				}
				mu.Lock()
				os.Stdout.WriteString(id + "\n")
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
}

func helperCmd(t *testing.T, env ...string) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), env...)
	cmd.Stderr = os.Stderr
	return cmd
}

func TestTwoProcessesClaimEachRunOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	db, path := openTest(t, Options{})
	var sessions []string
	for i := range 100 {
		sessions = append(sessions, fmt.Sprintf("s%d", i))
	}
	runs := seedRuns(t, db, "e", sessions, []string{"h1"}, Parallel)
	db.Close()

	outs := make([][]string, 2)
	var wg sync.WaitGroup
	var gos []io.WriteCloser
	for p := range 2 {
		cmd := helperCmd(t, "STORE_HELPER=claim", "STORE_DB="+path, fmt.Sprintf("STORE_OWNER=proc%d", p))
		stdout, _ := cmd.StdoutPipe()
		stdin, _ := cmd.StdinPipe()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		br := bufio.NewReader(stdout)
		if line, err := br.ReadString('\n'); line != "ready\n" {
			t.Fatalf("helper %d: %q %v", p, line, err)
		}
		gos = append(gos, stdin)
		wg.Add(1)
		go func() {
			defer wg.Done()
			b, _ := io.ReadAll(br)
			outs[p] = strings.Fields(string(b))
			if err := cmd.Wait(); err != nil {
				t.Errorf("helper %d: %v", p, err)
			}
		}()
	}
	for _, w := range gos {
		io.WriteString(w, "go\n")
		w.Close()
	}
	wg.Wait()
	seen := map[string]int{}
	for _, o := range outs {
		for _, id := range o {
			seen[id]++
		}
	}
	for _, r := range runs {
		if seen[r.ID] != 1 {
			t.Fatalf("run %s claimed %d times (proc0 %d, proc1 %d claims)", r.ID, seen[r.ID], len(outs[0]), len(outs[1]))
		}
	}
	t.Logf("proc0 claimed %d, proc1 claimed %d", len(outs[0]), len(outs[1]))
	db2 := reopen(t, path, Options{})
	done, _, _ := db2.ListRuns(bg, RunFilter{Status: RunSucceeded, Limit: 500})
	if len(done) != len(runs) {
		t.Fatalf("succeeded %d of %d", len(done), len(runs))
	}
}

// TestKill9MidEmitKeepsAcknowledgedEvents: a process emitting concurrently
// (group commit) is SIGKILLed; every id it printed after Emit returned must be
// in the database after reopening.
func TestKill9MidEmitKeepsAcknowledgedEvents(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	_, path := openTest(t, Options{})
	cmd := helperCmd(t, "STORE_HELPER=emit", "STORE_DB="+path, "STORE_PREFIX=k")
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(stdout)
	var acked []string
	killed := false
	for sc.Scan() {
		acked = append(acked, sc.Text())
		if len(acked) == 1500 && !killed {
			cmd.Process.Signal(syscall.SIGKILL)
			killed = true
		}
	}
	err := cmd.Wait()
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() {
		t.Fatalf("helper was not killed: %v", err)
	}
	db := reopen(t, path, Options{})
	var total int
	db.r.QueryRow(`SELECT count(*) FROM hook_events`).Scan(&total)
	for _, id := range acked {
		if _, err := db.GetEvent(bg, id); err != nil {
			t.Fatalf("acknowledged event %s lost: %v", id, err)
		}
	}
	t.Logf("acknowledged %d, present %d (unacknowledged in-flight ones may or may not be there)", len(acked), total)
}
