package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// TestDemoToursTheProduct builds cmd/hookside and plays the whole demo
// against it over real pipes, as `make demo` does: every step's check must
// pass, every section must be printed, and the temporary directory must be
// gone afterwards.
func TestDemoToursTheProduct(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the example hooks are bash, jq, python3 and node scripts run through a POSIX shell")
	}
	for _, p := range prerequisites {
		if _, err := exec.LookPath(p); err != nil {
			t.Skipf("%s is not on PATH: the example hooks need it", p)
		}
	}
	bin := filepath.Join(t.TempDir(), "hookside")
	build := exec.Command("go", "build", "-o", bin, "../../cmd/hookside")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	var out bytes.Buffer
	if err := run(&out, bin, ".."); err != nil {
		t.Fatalf("demo: %v\n%s", err, out.String())
	}
	text := out.String()
	for _, want := range []string{
		"1. Shell hooks: a session through the seven events",
		"2. Workspace trust: pending, reviewed, granted, then stale",
		"3. V2: turn.completed becomes a notification the host shows",
		"4. Shut down",
		"runs [skipped (pending_trust: not_trusted)]",
		"stale_digest (script_changed)",
		"│ Done: Fix the parser",
		"demo: every expected step happened",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the demo output lacks %q", want)
		}
	}
	m := regexp.MustCompile(`home (\S+), workspace`).FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("the demo does not say where its home is:\n%s", text)
	}
	if _, err := os.Stat(filepath.Dir(m[1])); !os.IsNotExist(err) {
		t.Errorf("the demo left %s behind (stat: %v)", filepath.Dir(m[1]), err)
	}
}
