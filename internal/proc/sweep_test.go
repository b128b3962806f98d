package proc

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"slices"
	"testing"
	"time"
)

// fakePID is where the fake process tables' pids start: far above the
// test process's own, which must not collide with them (Wine's are small).
const fakePID = 1 << 22

// fakeProcs is an in-memory process table for the sweep core.
type fakeProcs struct {
	env    map[int]string
	start  map[int]time.Time // when a process started (absent: unknown)
	killed []int
	read   []int          // the pids whose environment was read
	onKill map[int]func() // a kill that lets the victim fork first
}

func (f *fakeProcs) sweeper() sweeper {
	return sweeper{
		procs: func() ([]procEntry, error) {
			var pids []int
			for pid := range f.env {
				pids = append(pids, pid)
			}
			slices.Sort(pids)
			out := make([]procEntry, 0, len(pids))
			for _, pid := range pids {
				out = append(out, procEntry{pid: pid, start: f.start[pid]})
			}
			return out, nil
		},
		environ: func(pid int) ([]byte, error) {
			f.read = append(f.read, pid)
			return f.environ(pid)
		},
		kill: func(pid int) error {
			if fn := f.onKill[pid]; fn != nil {
				fn()
			}
			delete(f.env, pid)
			f.killed = append(f.killed, pid)
			return nil
		},
	}
}

// environ is the fake's environment block of pid.
func (f *fakeProcs) environ(pid int) ([]byte, error) {
	e, ok := f.env[pid]
	if !ok || e == "unreadable" {
		return nil, os.ErrPermission
	}
	return []byte(e), nil
}

func TestSweepCore(t *testing.T) {
	tok := "t0k"
	entry := TokenVar + "=" + tok
	t.Run("kills_exact_token_carriers_only", func(t *testing.T) {
		f := &fakeProcs{env: map[int]string{
			fakePID + 10: "A=1\x00" + entry + "\x00B=2",
			fakePID + 11: entry,
			fakePID + 12: TokenVar + "=" + tok + "x",    // a longer token
			fakePID + 13: "X" + entry,                   // another variable's suffix
			fakePID + 14: "unreadable",                  // another user's process
			fakePID + 15: "PATH=/bin\x00HOME=/root\x00", // unrelated
			os.Getpid():  entry,                         // the sweeper itself
		}}
		got, err := f.sweeper().sweep(tok, time.Time{})
		if err != nil || !slices.Equal(got, []int{fakePID + 10, fakePID + 11}) {
			t.Fatalf("sweep = %v, %v; want fakePID+[10 11]", got, err)
		}
	})
	t.Run("lists_again_for_children_forked_during_the_sweep", func(t *testing.T) {
		f := &fakeProcs{env: map[int]string{fakePID + 20: entry}}
		f.onKill = map[int]func(){
			fakePID + 20: func() { f.env[fakePID+21] = entry },
			fakePID + 21: func() { f.env[fakePID+22] = entry },
		}
		got, err := f.sweeper().sweep(tok, time.Time{})
		if err != nil || !slices.Equal(got, []int{fakePID + 20, fakePID + 21, fakePID + 22}) {
			t.Fatalf("sweep = %v, %v; want fakePID+[20 21 22]", got, err)
		}
	})
	t.Run("bounded_against_endless_forking", func(t *testing.T) {
		f := &fakeProcs{env: map[int]string{fakePID + 30: entry}}
		next := fakePID + 31
		f.onKill = map[int]func(){}
		var fork func()
		fork = func() { f.env[next] = entry; f.onKill[next] = fork; next++ }
		f.onKill[fakePID+30] = fork
		got, _ := f.sweeper().sweep(tok, time.Time{})
		if len(got) != sweepRounds {
			t.Fatalf("killed %d, want one per round (%d)", len(got), sweepRounds)
		}
	})
	t.Run("since_skips_processes_started_before_it", func(t *testing.T) {
		since := time.Unix(1_700_000_000, 0)
		f := &fakeProcs{env: map[int]string{
			fakePID + 40: entry, // started before: not read (it cannot carry this run's token)
			fakePID + 41: entry, // started after
			fakePID + 42: entry, // start unknown (Linux): read
			fakePID + 43: "A=1", // started after, unrelated
		}, start: map[int]time.Time{fakePID + 40: since.Add(-time.Second), fakePID + 41: since.Add(time.Second), fakePID + 43: since}}
		got, err := f.sweeper().sweep(tok, since)
		if err != nil || !slices.Equal(got, []int{fakePID + 41, fakePID + 42}) || slices.Contains(f.read, fakePID+40) {
			t.Fatalf("sweep = %v, %v (environments read: %v); want fakePID+[41 42], +40 not read", got, err, f.read)
		}
	})
	t.Run("reads_again_a_recent_process_it_could_not_read", func(t *testing.T) {
		since := time.Unix(1_700_000_000, 0)
		f := &fakeProcs{env: map[int]string{fakePID + 50: entry, fakePID + 51: "unreadable", fakePID + 52: "unreadable"},
			start: map[int]time.Time{fakePID + 50: since.Add(time.Second), fakePID + 51: since.Add(time.Second)}}
		reads := 0
		s := f.sweeper()
		s.environ = func(pid int) ([]byte, error) {
			f.read = append(f.read, pid)
			if pid == fakePID+50 {
				if reads++; reads == 1 {
					return nil, nil // mid-exec: an empty block
				}
			}
			return f.environ(pid)
		}
		got, err := s.sweep(tok, since)
		if err != nil || !slices.Equal(got, []int{fakePID + 50}) {
			t.Fatalf("sweep = %v, %v; want fakePID+50, read again", got, err)
		}
		// +51 (recent, unreadable) is retried a bounded number of times;
		// +52 (start unknown) is read once a round.
		if n := count(f.read, fakePID+51); n != 1+unsureRetries {
			t.Errorf("an unreadable recent process was read %d times, want %d", n, 1+unsureRetries)
		}
	})
	for _, bad := range []string{"", "a=b", "a\x00b"} {
		if _, err := (&fakeProcs{}).sweeper().sweep(bad, time.Time{}); !errors.Is(err, ErrBadToken) {
			t.Errorf("token %q: %v, want ErrBadToken", bad, err)
		}
	}
	t.Run("listing_error", func(t *testing.T) {
		s := sweeper{procs: func() ([]procEntry, error) { return nil, os.ErrPermission }}
		if _, err := s.sweep(tok, time.Time{}); !errors.Is(err, os.ErrPermission) {
			t.Fatalf("err = %v", err)
		}
	})
}

// procArgs2 builds a KERN_PROCARGS2 record as macOS lays it out.
func procArgs2(exe string, pad int, args, env []string) []byte {
	var b bytes.Buffer
	_ = binary.Write(&b, binary.NativeEndian, int32(len(args)))
	b.WriteString(exe)
	b.Write(make([]byte, 1+pad))
	for _, a := range args {
		b.WriteString(a)
		b.WriteByte(0)
	}
	for _, e := range env {
		b.WriteString(e)
		b.WriteByte(0)
	}
	return b.Bytes()
}

func TestProcArgs2Env(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   []byte
		want string
	}{
		{"args_then_env", procArgs2("/bin/sleep", 5, []string{"sleep", "30"}, []string{"A=1", "B=2"}), "A=1\x00B=2"},
		{"no_padding", procArgs2("/x", 0, []string{"x"}, []string{"A=1"}), "A=1"},
		{"env_ends_at_empty_string", append(procArgs2("/x", 2, []string{"x"}, []string{"A=1"}), "\x00ptr_munge=1\x00"...), "A=1"},
		{"unterminated_last_entry", append(procArgs2("/x", 2, []string{"x"}, nil), "A=1"...), "A=1"},
		{"no_env", procArgs2("/x", 3, []string{"x", "y"}, nil), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := procArgs2Env(tc.in)
			if err != nil || string(got) != tc.want {
				t.Fatalf("got %q, %v; want %q", got, err, tc.want)
			}
		})
	}
	fewer := procArgs2("/x", 1, []string{"x"}, nil)
	binary.NativeEndian.PutUint32(fewer, 3)
	for name, in := range map[string][]byte{
		"short":                {1, 0},
		"no_exe_terminator":    []byte("\x01\x00\x00\x00/bin/sh"),
		"fewer_args_than_argc": fewer,
	} {
		if _, err := procArgs2Env(in); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func count(xs []int, x int) int {
	n := 0
	for _, v := range xs {
		if v == x {
			n++
		}
	}
	return n
}
