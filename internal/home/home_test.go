package home

import (
	"os"
	"path/filepath"
	"testing"
)

func TestSecurityDirIgnoresCwd(t *testing.T) {
	dir := t.TempDir()
	if got := SecurityDir(dir, ""); got != filepath.Join(dir, "security") {
		t.Fatalf("default %s", got)
	}
	if got := SecurityDir(dir, "/data/hs"); got != "/data/hs/security" {
		t.Fatalf("absolute %s", got)
	}
	u, _ := os.UserHomeDir()
	if got := SecurityDir(dir, "rel"); got != filepath.Join(u, "rel", "security") {
		t.Fatalf("relative storage.dir %s resolved against something else than the home", got)
	}
}

func TestLayout(t *testing.T) {
	t.Setenv(EnvHome, "/h")
	if Default() != "/h" || ConfigPath("/h") != filepath.Join("/h", "config.json") || DBPath("/h") != filepath.Join("/h", "hookside.db") {
		t.Fatal(Default(), ConfigPath("/h"), DBPath("/h"))
	}
	t.Setenv(EnvHome, "")
	if u, err := os.UserHomeDir(); err == nil && Default() != filepath.Join(u, ".hookside") {
		t.Fatal(Default())
	}
}
