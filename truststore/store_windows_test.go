//go:build windows

package truststore

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/windows"

	"github.com/hookside/hookside/internal/fsid"
	"github.com/hookside/hookside/internal/proc"
)

// The owner/DACL rule over descriptors built from SDDL: what the store
// accepts and refuses. (Wine cannot enforce a DACL, but it parses and
// reports one, so the rule itself is checked here.)
func TestWindowsJudgeSecurity(t *testing.T) {
	user, err := tokenUser()
	if err != nil {
		t.Fatal(err)
	}
	u := user.String()
	cases := []struct {
		sddl, want string // want: "" = accepted, else a part of the reason
	}{
		{"O:" + u + "D:P(A;OICI;FA;;;" + u + ")(A;OICI;FA;;;SY)(A;OICI;FA;;;BA)", ""},
		{"O:" + u + "D:(A;;FA;;;" + u + ")(A;;FR;;;WD)", ""},       // everyone may read
		{"O:" + u + "D:(A;;FA;;;" + u + ")(A;OICIIO;FA;;;WD)", ""}, // inherit-only: not on the object
		{"O:" + u + "D:(A;;FA;;;" + u + ")(D;;FA;;;WD)", ""},       // a deny entry grants nothing
		{"O:" + u + "D:(A;;FA;;;" + u + ")(A;;FW;;;WD)", "write access to S-1-1-0"},
		{"O:" + u + "D:(A;;FA;;;" + u + ")(A;;GA;;;AU)", "write access to S-1-5-11"},
		{"O:" + u + "D:(A;;FA;;;" + u + ")(A;;WD;;;BU)", "write access to S-1-5-32-545"}, // WRITE_DAC
		{"O:" + u + "D:(A;;FA;;;" + u + ")(A;;SD;;;WD)", "write access"},                 // DELETE
		{"O:SYD:(A;;FA;;;SY)", "owned by S-1-5-18"},
		{"O:BAD:(A;;FA;;;BA)", "owned by S-1-5-32-544"},
		{"O:" + u, "no DACL"},
	}
	for _, tc := range cases {
		sd, err := windows.SecurityDescriptorFromString(tc.sddl)
		if err != nil {
			t.Fatalf("%s: %v", tc.sddl, err)
		}
		got := judgeSecurity(sd, user)
		if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.sddl, got, tc.want)
		}
	}
}

// A grant creates the directory and the file owned by the token user with
// the protected store DACL; both pass the store's own check.
func TestWindowsStoreProtected(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "security")
	s := Open(dir, Options{})
	if err := s.Grant("w", []Record{{Digest: hexSum("a")}}); err != nil {
		t.Fatal(err)
	}
	user, _ := tokenUser()
	for _, p := range []string{dir, s.Path()} {
		sd, err := windows.GetNamedSecurityInfo(p, windows.SE_FILE_OBJECT,
			windows.OWNER_SECURITY_INFORMATION|windows.DACL_SECURITY_INFORMATION)
		if err != nil {
			t.Fatal(err)
		}
		if why := judgeSecurity(sd, user); why != "" {
			t.Errorf("%s: %s", p, why)
		}
		owner, _, _ := sd.Owner()
		if !owner.Equals(user) {
			t.Errorf("%s owned by %s, want %s", p, owner, user)
		}
		ctl, _, _ := sd.Control()
		if ctl&windows.SE_DACL_PROTECTED == 0 {
			t.Logf("%s: DACL read back %s is not protected: Wine 8.0 does not keep a DACL it is given (SetNamedSecurityInfo succeeds); protection and enforcement are not verified here", p, sd)
		} else {
			t.Logf("%s: %s", p, sd)
		}
	}
	if st, err := s.Load(); err != nil || st.Status != StatusOK {
		t.Fatalf("Load: %s %v", st.Status, err)
	}
}

// The holder record lives in a sidecar file, readable while the
// mandatory lock is held, with the holder's start time.
func TestWindowsLockHolderSidecar(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "security")
	if err := ensureDir(dir); err != nil {
		t.Fatal(err)
	}
	lockPath := filepath.Join(dir, FileName+".lock")
	release, err := acquire(lockPath, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(holderPath(lockPath))
	if err != nil {
		t.Fatalf("holder record unreadable while locked: %v", err)
	}
	var info lockInfo
	if err := json.Unmarshal(b, &info); err != nil || info.PID != os.Getpid() {
		t.Fatalf("holder %s (%v), want pid %d", b, err, os.Getpid())
	}
	started, err := proc.ProcStartTime(os.Getpid())
	if err != nil || !started.Equal(info.StartedAt) {
		t.Fatalf("recorded start %s, ProcStartTime %s %v", info.StartedAt, started, err)
	}
	if msg := describeHolder(lockPath); !strings.HasPrefix(msg, "pid ") || strings.Contains(msg, "has exited") {
		t.Fatalf("describeHolder: %s", msg)
	}
	release()
	if b, _ := os.ReadFile(holderPath(lockPath)); len(b) != 0 {
		t.Fatalf("released lock still names a holder: %s", b)
	}
	t.Log("holder record read from the sidecar while the lock was held; that LockFileEx keeps others off the locked byte is not verified under Wine")
}

// A reader holding the trust file open (as the store's readers open it:
// FILE_SHARE_DELETE) never blocks the atomic replace; a foreign reader
// without it delays the replace only until it closes (bounded retry).
func TestWindowsReadersDoNotBlockReplace(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "security")
	s := Open(dir, Options{})
	if err := s.Grant("w", []Record{{Digest: hexSum("a")}}); err != nil {
		t.Fatal(err)
	}
	f, err := fsid.OpenNoFollow(s.Path())
	if err != nil {
		t.Fatal(err)
	}
	if underWine() {
		// Wine 8.0 has no POSIX rename semantics: a rename over a file
		// open with FILE_SHARE_DELETE fails as over any open file, so
		// only the bounded retry is checked.
		go func() { time.Sleep(200 * time.Millisecond); f.Close() }()
		t.Log("Wine 8.0 refuses a rename over an open file even with FILE_SHARE_DELETE: that store readers never block the replace is not verified here, only the bounded retry")
	}
	if err := s.Grant("w", []Record{{Digest: hexSum("b")}}); err != nil {
		t.Fatalf("grant while a store reader holds the file: %v", err)
	}
	if !underWine() {
		f.Close()
	}

	g, err := os.Open(s.Path()) // no FILE_SHARE_DELETE
	if err != nil {
		t.Fatal(err)
	}
	closed := make(chan struct{})
	go func() {
		time.Sleep(200 * time.Millisecond)
		g.Close()
		close(closed)
	}()
	start := time.Now()
	err = s.Grant("w", []Record{{Digest: hexSum("c")}})
	<-closed
	if err != nil {
		t.Fatalf("grant while a foreign reader held the file for 200ms: %v", err)
	}
	st, err := s.Load()
	if err != nil || len(st.Records) != 3 {
		t.Fatalf("Load: %d records, %v", len(st.Records), err)
	}
	t.Logf("replace retried past a foreign reader's handle: %s", time.Since(start).Round(time.Millisecond))
}
