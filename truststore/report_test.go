package truststore

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/runner/config"
)

const disableFile = `{
  "$schema": "x",   "model": "keep <&> ü",
  "hooks": {
    "timeoutMs": 4000,
    "events": {
      "PreToolUse": [
        {"matcher": "Bash", "hooks": [
          {"type": "process", "command": "first"},
          {   "type": "process", "command": "second", "statusMessage": "s" }
        ]}
      ],
      "Stop": [{"hooks": [{"type": "command", "command": "echo", "enabled": true}]}]
    }
  },
  "trailing": [1,2,3]
}
`

func mkGit(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
}

// discover is the zcode workspace of cwd with the root switch on, digested:
// what a session builds (config.DiscoverWorkspace, then NewWorkspace).
func discover(cwd string) *Workspace {
	f := config.DiscoverWorkspace(config.WorkspaceOptions{Cwd: cwd, RootOn: true})
	files := make([]SourceFile, len(f.Files))
	for i, x := range f.Files {
		files[i] = SourceFile{RelativePath: x.RelativePath, Content: x.Content}
	}
	return NewWorkspace(f.Root, f.Cwd, files, f.Hooks, f.Enabled)
}

func discoverOne(t *testing.T, content string, mode os.FileMode) (*Workspace, string) {
	t.Helper()
	repo := t.TempDir()
	mkGit(t, repo)
	p := filepath.Join(repo, ".zcode", "config.json")
	writeFile(t, p, content)
	if err := os.Chmod(p, mode); err != nil {
		t.Fatal(err)
	}
	return discover(repo), p
}

func findDecl(t *testing.T, w *Workspace, command string) Declaration {
	t.Helper()
	for _, d := range w.Declarations {
		if d.Hook.Command == command {
			return d
		}
	}
	t.Fatalf("no declaration %q", command)
	return Declaration{}
}

func TestDisablePreservesBytes(t *testing.T) {
	w, p := discoverOne(t, disableFile, 0o640)
	d := findDecl(t, w, "second")
	if err := disable(d, hook.Limits{}); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(p)
	want := strings.Replace(disableFile, `{   "type": "process", "command": "second"`, `{   "enabled": false, "type": "process", "command": "second"`, 1) // the object's own spacing: before the first key, between keys
	if string(got) != want {
		t.Fatalf("file after Disable:\n%s\nwant:\n%s", got, want)
	}
	if fi, _ := os.Stat(p); runtime.GOOS != "windows" && fi.Mode().Perm() != 0o640 {
		t.Fatalf("mode %04o, want 0640 kept", fi.Mode().Perm())
	}
	// enabled is not a digest input: same digest, now disabled.
	w2 := discover(w.Cwd)
	d2 := findDecl(t, w2, "second")
	if d2.Digest != d.Digest {
		t.Fatal("disabling changed the digest")
	}
	for i, x := range w2.Declarations {
		if wantOn := x.Hook.Command != "second"; w2.Enabled[i] != wantOn {
			t.Errorf("%s enabled=%v", x.Hook.Command, w2.Enabled[i])
		}
	}

	// An existing "enabled": true is flipped in place.
	d3 := findDecl(t, w2, "echo")
	before, _ := os.ReadFile(p)
	if err := disable(d3, hook.Limits{}); err != nil {
		t.Fatal(err)
	}
	after, _ := os.ReadFile(p)
	if string(after) != strings.Replace(string(before), `"command": "echo", "enabled": true}`, `"command": "echo", "enabled": false}`, 1) {
		t.Fatalf("in-place flip:\n%s", after)
	}
}

func TestDisableRefusesChangedDeclaration(t *testing.T) {
	for name, edit := range map[string]func(string) string{
		"command_changed": func(s string) string { return strings.Replace(s, `"second"`, `"evil"`, 1) },
		// The slot moved: "second" is now hook 0, a different position.
		"reordered":      func(s string) string { return strings.Replace(s, `{"type": "process", "command": "first"},`, ``, 1) },
		"timeout_change": func(s string) string { return strings.Replace(s, `"timeoutMs": 4000`, `"timeoutMs": 5000`, 1) },
		"file_removed":   nil,
	} {
		t.Run(name, func(t *testing.T) {
			w, p := discoverOne(t, disableFile, 0o644)
			d := findDecl(t, w, "second")
			var changed string
			if edit == nil {
				if err := os.Remove(p); err != nil {
					t.Fatal(err)
				}
			} else {
				changed = edit(disableFile)
				writeFile(t, p, changed)
			}
			err := disable(d, hook.Limits{})
			if err == nil {
				t.Fatal("Disable wrote into a changed file")
			}
			if edit == nil {
				return
			}
			if !errors.Is(err, config.ErrNotReviewed) {
				t.Fatalf("err = %v, want config.ErrNotReviewed", err)
			}
			if got, _ := os.ReadFile(p); string(got) != changed {
				t.Fatal("the changed file was modified")
			}
		})
	}
}

func TestDisableRefusesSymlinkAndPlugin(t *testing.T) {
	w, p := discoverOne(t, disableFile, 0o644)
	d := findDecl(t, w, "first")
	// Replace the file by a symlink to a copy: Disable must not follow it.
	cp := filepath.Join(t.TempDir(), "copy.json")
	writeFile(t, cp, disableFile)
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(cp, p); err != nil {
		t.Fatal(err)
	}
	if err := disable(d, hook.Limits{}); err == nil {
		t.Fatal("Disable followed a symlink")
	}
	if got, _ := os.ReadFile(cp); string(got) != disableFile {
		t.Fatal("symlink target modified")
	}
	pd := d
	pd.Hook.Source.PluginRoot = "/some/plugin"
	if err := disable(pd, hook.Limits{}); err == nil {
		t.Fatal("a workspace plugin's declaration was disabled")
	}
}

func TestResolveTarget(t *testing.T) {
	top := t.TempDir()
	real := filepath.Join(top, "real")
	if err := os.MkdirAll(real, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(top, "link")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	symlinkUsable(t, link)
	canon, _ := filepath.EvalSymlinks(real)
	for _, arg := range []string{real, link, "local:" + link, real + "/"} {
		tg, err := ResolveTarget(arg)
		if err != nil {
			t.Fatalf("%s: %v", arg, err)
		}
		if tg.ID != canon || tg.Dir == "" {
			t.Errorf("%s: %+v, want identity %s", arg, tg, canon)
		}
	}
	// A relative path resolves against the working directory.
	t.Chdir(top)
	if tg, err := ResolveTarget("real"); err != nil || tg.ID != canon {
		t.Errorf("relative: %+v %v", tg, err)
	}
	for _, id := range []string{"remote:host/x", "ssh:me@h:/p", "container:abc", "wsl:Ubuntu/home"} {
		tg, err := ResolveTarget(id)
		if err != nil || tg.ID != id || tg.Dir != "" {
			t.Errorf("%s: %+v %v", id, tg, err)
		}
	}
	file := filepath.Join(top, "f")
	writeFile(t, file, "x")
	for bad, want := range map[string]string{filepath.Join(top, "missing"): "no such directory", file: "not a directory", "local:" + file: "not a directory"} {
		if _, err := ResolveTarget(bad); err == nil || !strings.HasSuffix(err.Error(), ": "+want) || strings.Contains(err.Error(), "stat ") {
			t.Errorf("%s: err %v, want \"workspace …: %s\"", bad, err, want)
		}
	}
	// A session and the CLI agree on the identity of a symlinked cwd.
	if CanonicalID(link) != canon {
		t.Errorf("CanonicalID(%s) = %s", link, CanonicalID(link))
	}
}

func TestDescribe(t *testing.T) {
	w, _ := discoverOne(t, disableFile, 0o644)
	evs := Evaluate(EvalInput{WorkspaceID: "w", Policy: PolicyUserDecides, Declarations: w.Declarations})
	ds := Describe(w, evs, nil)
	if len(ds) != 3 {
		t.Fatalf("%d described", len(ds))
	}
	d := ds[0]
	if d.Source.RelativePath != ".zcode/config.json" || d.Event != hook.PreToolUse || d.TimeoutMs != 4000 ||
		d.TrustState != PendingTrust || !d.Enabled || d.Args == nil {
		t.Fatalf("%+v", d)
	}
}

// disable is what the review's disable_selected does (runner.Disable).
func disable(d Declaration, userLimits hook.Limits) error {
	return config.Disable(d.Hook, userLimits, func(cur hook.Hook) bool { return Digest(cur) == d.Digest })
}
