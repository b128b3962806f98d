package home

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

func TestSecurityDirIgnoresCwd(t *testing.T) {
	dir := t.TempDir()
	if got := SecurityDir(dir, ""); got != filepath.Join(dir, "security") {
		t.Fatalf("default %s", got)
	}
	abs := filepath.Join(t.TempDir(), "data", "hs")
	if got := SecurityDir(dir, abs); got != filepath.Join(abs, "security") {
		t.Fatalf("absolute %s", got)
	}
	u, _ := os.UserHomeDir()
	if got := SecurityDir(dir, "rel"); got != filepath.Join(u, "rel", "security") {
		t.Fatalf("relative storage.dir %s resolved against something else than the home", got)
	}
}

func TestLayout(t *testing.T) {
	t.Setenv(envHome, "/h")
	if Default() != "/h" || ConfigPath("/h") != filepath.Join("/h", "config.json") || DBPath("/h") != filepath.Join("/h", "hookside.db") {
		t.Fatal(Default(), ConfigPath("/h"), DBPath("/h"))
	}
	t.Setenv(envHome, "")
	if u, err := os.UserHomeDir(); err == nil && runtime.GOOS != "windows" && Default() != filepath.Join(u, ".hookside") {
		t.Fatal(Default())
	}
}

// On Windows the default home is %LOCALAPPDATA%\hookside (not roamed);
// without an absolute LOCALAPPDATA it is the Unix default.
func TestDefaultWindows(t *testing.T) {
	local := filepath.Join(t.TempDir(), "Local")
	env := func(v string) func(string) string {
		return func(k string) string {
			if k == "LOCALAPPDATA" {
				return v
			}
			return ""
		}
	}
	if got := defaultFor("windows", env(local)); got != filepath.Join(local, "hookside") {
		t.Fatalf("windows default %s, want %s", got, filepath.Join(local, "hookside"))
	}
	u, err := os.UserHomeDir()
	if err != nil {
		t.Skip("no user home directory:", err)
	}
	for _, v := range []string{"", "relative"} {
		if got := defaultFor("windows", env(v)); got != filepath.Join(u, ".hookside") {
			t.Fatalf("LOCALAPPDATA=%q: %s", v, got)
		}
	}
	if got := defaultFor("linux", env(local)); got != filepath.Join(u, ".hookside") {
		t.Fatalf("linux default %s", got)
	}
	if runtime.GOOS == "windows" {
		t.Setenv(envHome, "")
		t.Setenv("LOCALAPPDATA", local)
		if got := Default(); got != filepath.Join(local, "hookside") {
			t.Fatalf("Default %s", got)
		}
	}
}
