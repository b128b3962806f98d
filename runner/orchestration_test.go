package runner

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/runner/exec"
	"github.com/hookside/hookside/truststore"
)

// fakeSpawner stands in for real processes: a hook's answer is decided by
// its command line (the last argv entry: command hooks run ["sh", "-c",
// command]). It records the start order and how many hooks ran at once.
type fakeSpawner struct {
	// run answers one hook; nil answers exit 0 with the command as stdout.
	run func(ctx context.Context, cmd string) exec.Result

	mu                  sync.Mutex
	started             []string
	running, maxRunning int
	// finished[cmd] is the number of hooks that had finished when cmd
	// started.
	finishedAtStart map[string]int
	finished        int
}

var _ exec.Spawner = (*fakeSpawner)(nil)

func (f *fakeSpawner) Run(ctx context.Context, spec exec.Spec) exec.Result {
	cmd := spec.Argv[len(spec.Argv)-1]
	f.mu.Lock()
	f.started = append(f.started, cmd)
	if f.finishedAtStart == nil {
		f.finishedAtStart = map[string]int{}
	}
	f.finishedAtStart[cmd] = f.finished
	f.running++
	f.maxRunning = max(f.maxRunning, f.running)
	f.mu.Unlock()
	var res exec.Result
	if f.run != nil {
		res = f.run(ctx, cmd)
	} else {
		res = exec.Result{Stdout: []byte(cmd + "\n")}
	}
	f.mu.Lock()
	f.running--
	f.finished++
	f.mu.Unlock()
	return res
}

// openFake opens a spark session of e that spawns through sp.
func (e sparkEnv) openFake(t *testing.T, sp exec.Spawner) *Session {
	t.Helper()
	s, _ := NewSession(SessionOptions{
		ID: "s1", Cwd: e.cwd, UserConfigPath: filepath.Join(e.home, "config.json"),
		Profile: ProfileSpark, SparkUserDir: e.user, Spawner: sp,
		Workspace: WorkspaceOptions{Home: e.home, Policy: truststore.PolicyUserDecides},
	})
	t.Cleanup(s.Close)
	return s
}

// barrier is released once n parties have arrived.
type barrier struct {
	mu   sync.Mutex
	n    int
	done chan struct{}
}

func newBarrier(n int) *barrier { return &barrier{n: n, done: make(chan struct{})} }

// arrive counts one party and waits for the others (or ctx). It reports
// whether all n arrived.
func (b *barrier) arrive(ctx context.Context) bool {
	b.mu.Lock()
	b.n--
	if b.n == 0 {
		close(b.done)
	}
	b.mu.Unlock()
	select {
	case <-b.done:
		return true
	case <-ctx.Done():
		return false
	}
}

// TestParallelGroup: the hooks of a "parallel": true matcher group run at
// the same time, are merged in registration order whatever order they
// finish in, and the next group starts only after all of them finished.
func TestParallelGroup(t *testing.T) {
	e := newSparkEnv(t)
	e.write(t, filepath.Join(e.user, "settings.json"), settings(map[string][]map[string]any{
		"UserPromptSubmit": {
			cmdGroup("", true, "one", "two", "three"),
			cmdGroup("", false, "four"),
		}}))
	all := newBarrier(3)      // every member of the group has started
	twoThree := newBarrier(3) // "two" and "three" finished; "one" waits for them
	sp := &fakeSpawner{run: func(ctx context.Context, cmd string) exec.Result {
		if cmd == "four" {
			return exec.Result{Stdout: []byte("four\n")}
		}
		// A sequential runner would wait here forever: the bound only
		// turns a deadlock into a failure.
		bctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		if !all.arrive(bctx) {
			return exec.Result{ExitCode: 1, Stderr: []byte("the group did not run concurrently")}
		}
		if cmd == "one" {
			twoThree.arrive(bctx) // finish last
		} else {
			defer twoThree.arrive(bctx)
		}
		return exec.Result{Stdout: []byte(cmd + "\n")}
	}}
	s := e.openFake(t, sp)
	m := run(t, s, hook.UserPromptSubmit, `{"prompt":"x"}`)
	if got := strings.Join(m.AdditionalContext, ","); got != "one,two,three,four" {
		t.Fatalf("merged order %q (%s)", got, outcomes(m))
	}
	if sp.maxRunning != 3 {
		t.Fatalf("%d hooks ran at once, want 3", sp.maxRunning)
	}
	if n := sp.finishedAtStart["four"]; n != 3 {
		t.Fatalf("the next group started after %d of 3 hooks finished", n)
	}
}

// TestSequentialHooksRunOneAtATime: hooks outside a parallel group run one
// after the other, in registration order.
func TestSequentialHooksRunOneAtATime(t *testing.T) {
	e := newSparkEnv(t)
	e.write(t, filepath.Join(e.user, "settings.json"), settings(map[string][]map[string]any{
		"UserPromptSubmit": {
			cmdGroup("", false, "a", "b"),
			cmdGroup("", false, "c"),
		}}))
	sp := &fakeSpawner{}
	s := e.openFake(t, sp)
	m := run(t, s, hook.UserPromptSubmit, `{"prompt":"x"}`)
	if got := strings.Join(m.AdditionalContext, ","); got != "a,b,c" {
		t.Fatalf("merged order %q", got)
	}
	if got := strings.Join(sp.started, ","); got != "a,b,c" || sp.maxRunning != 1 {
		t.Fatalf("started %q, at most %d at once", got, sp.maxRunning)
	}
}

// TestCancelledRunStopsBeforeTheNextHook: a request cancelled while a hook
// runs returns ctx's error and starts no further hook.
func TestCancelledRunStopsBeforeTheNextHook(t *testing.T) {
	e := newSparkEnv(t)
	e.write(t, filepath.Join(e.user, "settings.json"), settings(map[string][]map[string]any{
		"UserPromptSubmit": {cmdGroup("", false, "first", "second")}}))
	ctx, cancel := context.WithCancel(context.Background())
	sp := &fakeSpawner{run: func(hctx context.Context, cmd string) exec.Result {
		cancel()
		<-hctx.Done() // the spawner sees the cancellation
		return exec.Result{ExitCode: -1, Canceled: true}
	}}
	s := e.openFake(t, sp)
	_, err := s.Run(ctx, RunRequest{Event: hook.UserPromptSubmit, TurnID: "t", Input: []byte(`{"prompt":"x"}`)}, nil)
	if err != context.Canceled {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if got := strings.Join(sp.started, ","); got != "first" {
		t.Fatalf("started %q, want only first", got)
	}
}
