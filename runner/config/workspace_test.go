package config

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/truststore"
)

// wsFile is a workspace config with one PreToolUse hook running command.
// top is spliced into the top-level object, hooksTop into "hooks".
func wsFile(command, top, hooksTop string) string {
	if top != "" {
		top += ","
	}
	if hooksTop != "" {
		hooksTop += ","
	}
	return `{` + top + `"hooks":{` + hooksTop + `"events":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"process","command":"` + command + `"}]}]}}}`
}

func wsCommands(w *Workspace) []string { return commands(w.Hooks) }

// discover is DiscoverWorkspace in the zcode dialect with the root switch's
// other layers at root.
func discover(cwd, projectConfig string, root bool) *Workspace {
	return DiscoverWorkspace(WorkspaceOptions{Cwd: cwd, ProjectConfigPath: projectConfig, RootOn: root})
}

// symlinkUsable skips the test when the link os.Symlink made cannot be
// stat'ed (as under Wine 8.0: GetFileAttributesEx says file not found).
func symlinkUsable(t *testing.T, link string) {
	t.Helper()
	if _, err := os.Stat(link); err != nil {
		t.Skipf("symlinks are not usable here: %v", err)
	}
}

func relPaths(w *Workspace) []string {
	var out []string
	for _, f := range w.Files {
		out = append(out, f.RelativePath)
	}
	return out
}

func wf(t *testing.T, p, content string) { writeFile(t, filepath.Dir(p), filepath.Base(p), content) }

func mkGit(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
}

func TestDiscoverLevelsAndOrder(t *testing.T) {
	top := t.TempDir()
	repo := filepath.Join(top, "repo")
	cwd := filepath.Join(repo, "a", "b")
	mkGit(t, repo)
	wf(t, filepath.Join(top, "zcode.json"), wsFile("above-root", "", "")) // above the root: never read
	wf(t, filepath.Join(repo, "zcode.json"), wsFile("root", "", ""))
	wf(t, filepath.Join(repo, ".zcode", "config.json"), wsFile("root-dot", "", ""))
	wf(t, filepath.Join(repo, "a", ".zcode", "config.json"), wsFile("a-dot", "", ""))
	wf(t, filepath.Join(cwd, "zcode.json"), wsFile("cwd", "", ""))
	wf(t, filepath.Join(cwd, ".zcode", "config.json"), wsFile("cwd-dot", "", ""))
	wf(t, filepath.Join(top, "extra.json"), wsFile("extra", "", ""))

	w := discover(cwd, "../../../extra.json", true)
	if w.Root != repo {
		t.Fatalf("root %s, want %s", w.Root, repo)
	}
	wantFiles := []string{"zcode.json", ".zcode/config.json", "a/.zcode/config.json", "a/b/zcode.json", "a/b/.zcode/config.json", "../extra.json"}
	if got := relPaths(w); !slices.Equal(got, wantFiles) {
		t.Fatalf("files %q, want %q", got, wantFiles)
	}
	if got, want := wsCommands(w), []string{"root", "root-dot", "a-dot", "cwd", "cwd-dot", "extra"}; !slices.Equal(got, want) {
		t.Fatalf("declarations %q, want %q", got, want)
	}
	for i, h := range w.Hooks {
		if h.Source.DiscoveryOrder != i || h.Source.Kind != hook.SourceWorkspace {
			t.Errorf("decl %d: order %d kind %s", i, h.Source.DiscoveryOrder, h.Source.Kind)
		}
		if !w.Enabled[i] {
			t.Errorf("decl %d disabled", i)
		}
	}
}

func TestDiscoverNoGitIsCwdOnly(t *testing.T) {
	top := t.TempDir()
	cwd := filepath.Join(top, "proj")
	wf(t, filepath.Join(top, "zcode.json"), wsFile("parent", "", ""))
	wf(t, filepath.Join(cwd, "zcode.json"), wsFile("cwd", "", ""))
	wf(t, filepath.Join(cwd, ".zcode", "config.json"), wsFile("cwd-dot", "", ""))
	w := discover(cwd, "", true)
	if w.Root != cwd {
		t.Fatalf("root %s, want the cwd", w.Root)
	}
	if got, want := wsCommands(w), []string{"cwd", "cwd-dot"}; !slices.Equal(got, want) {
		t.Fatalf("declarations %q, want %q", got, want)
	}
}

func TestDiscoverGitFileCountsAsRoot(t *testing.T) {
	// A worktree or submodule has a .git file, not a directory.
	repo := t.TempDir()
	cwd := filepath.Join(repo, "sub")
	wf(t, filepath.Join(repo, ".git"), "gitdir: /elsewhere\n")
	wf(t, filepath.Join(repo, "zcode.json"), wsFile("root", "", ""))
	if err := os.MkdirAll(cwd, 0o755); err != nil {
		t.Fatal(err)
	}
	w := discover(cwd, "", true)
	if w.Root != repo || !slices.Equal(wsCommands(w), []string{"root"}) {
		t.Fatalf("root %s decls %q", w.Root, wsCommands(w))
	}
}

func TestDiscoverEnabledSwitches(t *testing.T) {
	cases := []struct {
		name        string
		user        *bool  // the root switch's other layers (nil: absent)
		rootTop     string // hooks.* of the root file
		cwdTop      string // hooks.* of the cwd file
		declOff     bool   // the cwd file's declaration says enabled:false
		wantEnabled []bool // root decl, cwd decl
	}{
		{"user_absent_nothing_on", nil, "", "", false, []bool{false, false}},
		{"user_false", boolp(false), "", "", false, []bool{false, false}},
		{"user_true", boolp(true), "", "", false, []bool{true, true}},
		// The root switch is any-true: one workspace file turns it on for all.
		{"file_true_turns_root_on", nil, `"enabled":true`, "", false, []bool{true, true}},
		{"user_false_file_true", boolp(false), "", `"enabled":true`, false, []bool{true, true}},
		// A file's own false switches off only that file.
		{"file_false", boolp(true), "", `"enabled":false`, false, []bool{true, false}},
		{"file_true_other_false", nil, `"enabled":true`, `"enabled":false`, false, []bool{true, false}},
		{"declaration_false", boolp(true), "", "", true, []bool{true, false}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			repo := t.TempDir()
			mkGit(t, repo)
			cwd := filepath.Join(repo, "c")
			wf(t, filepath.Join(repo, "zcode.json"), wsFile("root", "", tc.rootTop))
			cwdFile := wsFile("cwd", "", tc.cwdTop)
			if tc.declOff {
				cwdFile = strings.Replace(cwdFile, `{"type"`, `{"enabled":false,"type"`, 1)
			}
			wf(t, filepath.Join(cwd, "zcode.json"), cwdFile)
			w := discover(cwd, "", tc.user != nil && *tc.user)
			if len(w.Hooks) != 2 {
				t.Fatalf("declarations %q", wsCommands(w))
			}
			if !slices.Equal(w.Enabled, tc.wantEnabled) {
				t.Fatalf("enabled %v, want %v", w.Enabled, tc.wantEnabled)
			}
			var exec []string
			for i, h := range w.Hooks {
				if w.Enabled[i] {
					exec = append(exec, h.Command)
				}
			}
			var want []string
			for i, c := range []string{"root", "cwd"} {
				if tc.wantEnabled[i] {
					want = append(want, c)
				}
			}
			if !slices.Equal(exec, want) {
				t.Fatalf("executable %q, want %q", exec, want)
			}
		})
	}
}

func TestDiscoverPluginDirs(t *testing.T) {
	top := t.TempDir()
	repo := filepath.Join(top, "repo")
	mkGit(t, repo)
	plugin := `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"%s","timeout":3}]}]}}`
	wf(t, filepath.Join(repo, "zcode.json"), `{"plugins":{"dirs":["plug","../outside-plug","/nonexistent-plugin-dir"]},"hooks":{"enabled":false}}`)
	wf(t, filepath.Join(repo, "plug", "hooks", "hooks.json"), strings.Replace(plugin, "%s", "inside", 1))
	wf(t, filepath.Join(top, "outside-plug", "hooks", "hooks.json"), strings.Replace(plugin, "%s", "outside", 1))
	w := discover(repo, "", true)
	if got, want := wsCommands(w), []string{"inside", "outside"}; !slices.Equal(got, want) {
		t.Fatalf("declarations %q, want %q", got, want)
	}
	if got, want := relPaths(w), []string{"zcode.json", "plug/hooks/hooks.json", "../outside-plug/hooks/hooks.json"}; !slices.Equal(got, want) {
		t.Fatalf("files %q, want %q", got, want)
	}
	// The directory that is not there is named, with the file naming it.
	gone := "/nonexistent-plugin-dir"
	if !filepath.IsAbs(gone) { // Windows: relative to the file's directory
		gone = filepath.Join(repo, gone)
	}
	if len(w.Diagnostics) != 1 || w.Diagnostics[0].Code != hook.CodePluginDirNotFound || w.Diagnostics[0].Source != gone ||
		w.Diagnostics[0].Message != "the plugin directory does not exist (plugins.dirs of zcode.json); its hooks do not load" {
		t.Fatalf("diagnostics %+v, want one plugin_dir_not_found for /nonexistent-plugin-dir", w.Diagnostics)
	}
	for i, h := range w.Hooks {
		if h.Source.Kind != hook.SourceWorkspace || !strings.HasPrefix(h.ID, "workspace:") {
			t.Errorf("plugin decl %d is %s (%s), want a workspace declaration", i, h.Source.Kind, h.ID)
		}
		if h.Source.DiscoveryOrder != i+1 || h.TimeoutMs != 3000 {
			t.Errorf("plugin decl %d: order %d timeout %d", i, h.Source.DiscoveryOrder, h.TimeoutMs)
		}
		// The declaring file's hooks.enabled:false does not govern the
		// plugin's own hooks.json; they are still gated by trust.
		if !w.Enabled[i] {
			t.Errorf("plugin decl %d disabled", i)
		}
	}
}

func TestDiscoverSymlinkOutsideRoot(t *testing.T) {
	top := t.TempDir()
	repo := filepath.Join(top, "repo")
	mkGit(t, repo)
	wf(t, filepath.Join(top, "evil", "zcode.json"), wsFile("evil", "", ""))
	wf(t, filepath.Join(top, "evil", "config.json"), wsFile("evil-dot", "", ""))
	wf(t, filepath.Join(repo, "real.json"), wsFile("inside-link", "", ""))
	if err := os.Symlink(filepath.Join(top, "evil", "zcode.json"), filepath.Join(repo, "zcode.json")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(top, "evil"), filepath.Join(repo, ".zcode")); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(repo, "sub")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	// A symlink that stays inside the root is fine.
	if err := os.Symlink("../real.json", filepath.Join(sub, "zcode.json")); err != nil {
		t.Fatal(err)
	}
	symlinkUsable(t, filepath.Join(sub, "zcode.json"))
	w := discover(sub, "", true)
	if got := wsCommands(w); !slices.Equal(got, []string{"inside-link"}) {
		t.Fatalf("declarations %q, want only the inside link", got)
	}
	n := 0
	for _, d := range w.Diagnostics {
		if d.Code == hook.CodeOutsideRoot {
			n++
		}
	}
	if n != 2 {
		t.Fatalf("diagnostics %+v, want 2 %s", w.Diagnostics, hook.CodeOutsideRoot)
	}
}

func TestWorkspaceChanged(t *testing.T) {
	repo := t.TempDir()
	mkGit(t, repo)
	f := filepath.Join(repo, "zcode.json")
	wf(t, f, wsFile("one", "", ""))
	w := discover(repo, "", true)
	if w.Changed() {
		t.Fatal("changed right after discovery")
	}
	steps := []struct {
		name string
		do   func()
	}{
		{"edit", func() { wf(t, f, wsFile("two-longer", "", "")) }},
		{"appear", func() { wf(t, filepath.Join(repo, ".zcode", "config.json"), wsFile("new", "", "")) }},
		{"disappear", func() { _ = os.Remove(f) }},
		{"same_size_touch", func() {
			st, _ := os.Stat(filepath.Join(repo, ".zcode", "config.json"))
			_ = os.Chtimes(filepath.Join(repo, ".zcode", "config.json"), time.Now(), st.ModTime().Add(time.Second))
		}},
	}
	for _, s := range steps {
		s.do()
		if !w.Changed() {
			t.Fatalf("%s: not seen as changed", s.name)
		}
		w = discover(repo, "", true)
		if w.Changed() {
			t.Fatalf("%s: changed right after rediscovery", s.name)
		}
	}
}

// TestLoaderRediscoversWorkspace: the Loader runs workspace discovery with
// the same change detector as its other sources: an unchanged workspace
// returns the same Set, an edited, new or removed workspace file a new
// one, in the zcode and the spark dialect alike.
func TestLoaderRediscoversWorkspace(t *testing.T) {
	for _, d := range []*hook.Dialect{hook.Zcode, hook.Spark} {
		t.Run(d.Name, func(t *testing.T) {
			cwd := t.TempDir()
			mkGit(t, cwd)
			body := wsFile("one", "", "")
			if d.ClaudeShaped {
				body = `{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"one"}]}]}}`
			}
			f := writeFile(t, cwd, d.WorkspaceFiles[0], body)
			l := NewLoader(LoaderOptions{Dialect: d, Cwd: cwd, RootOn: true})
			s1, _ := l.Load()
			if s1.Workspace == nil || !eq(wsCommands(s1.Workspace), []string{"one"}) || s1.Workspace.Root != cwd {
				t.Fatalf("workspace %+v", s1.Workspace)
			}
			if s2, _ := l.Load(); s2 != s1 {
				t.Fatal("unchanged workspace built a new Set")
			}
			writeFile(t, cwd, d.WorkspaceFiles[0], strings.Replace(body, `"one"`, `"two-longer"`, 1))
			s3, _ := l.Load()
			if s3 == s1 || !eq(wsCommands(s3.Workspace), []string{"two-longer"}) || s3.Version != s1.Version+1 {
				t.Fatalf("edit not seen: %q (version %d)", wsCommands(s3.Workspace), s3.Version)
			}
			writeFile(t, cwd, d.WorkspaceFiles[1], body)
			s4, _ := l.Load()
			if !eq(wsCommands(s4.Workspace), []string{"two-longer", "one"}) {
				t.Fatalf("new file not seen: %q", wsCommands(s4.Workspace))
			}
			if err := os.Remove(f); err != nil {
				t.Fatal(err)
			}
			if s5, _ := l.Load(); !eq(wsCommands(s5.Workspace), []string{"one"}) {
				t.Fatalf("removal not seen: %q", wsCommands(s5.Workspace))
			}
		})
	}
}

// A workspace config path that is a directory is one read error whose
// message names the file and says what it is (not its mode bits).
func TestDiscoverConfigIsDirectory(t *testing.T) {
	repo := t.TempDir()
	mkGit(t, repo)
	for _, rel := range []string{"zcode.json", filepath.Join(".zcode", "config.json"), "extra.json"} {
		if err := os.MkdirAll(filepath.Join(repo, rel), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	w := discover(repo, "extra.json", true)
	if len(w.Diagnostics) != 3 {
		t.Fatalf("diagnostics %+v, want 3", w.Diagnostics)
	}
	for _, d := range w.Diagnostics {
		if d.Code != hook.CodeReadError || !strings.Contains(d.Message, d.Source+" is a directory, not a file") {
			t.Errorf("%+v: want %s naming %s as a directory", d, hook.CodeReadError, d.Source)
		}
	}
}

// TestUserLimitsAreInWorkspaceDigests: a workspace declaration that sets
// no timeoutMs / maxOutputBytes of its own (nor its file) resolves them
// from the user config, and the resolved values are inputs of its trust
// digest (lifecycle-hooks-and-workspace-trust §"按什么摘要信任"), so changing
// the user's hooks.timeoutMs or maxOutputBytes changes that digest (a
// granted declaration becomes stale_digest); a declaration with its own
// values, or in a file with hooks.timeoutMs, keeps its digest.
func TestUserLimitsAreInWorkspaceDigests(t *testing.T) {
	repo := t.TempDir()
	mkGit(t, repo)
	wf(t, filepath.Join(repo, "zcode.json"), `{"hooks":{"events":{"Stop":[{"hooks":[
  {"type":"command","command":"inherits"},
  {"type":"command","command":"own","timeoutMs":7000,"maxOutputBytes":100}]}]}}}`)
	wf(t, filepath.Join(repo, ".zcode", "config.json"), `{"hooks":{"timeoutMs":9000,"maxOutputBytes":200,"events":{"Stop":[{"hooks":[
  {"type":"command","command":"file-level"}]}]}}}`)
	digests := func(l hook.Limits) map[string]string {
		w := DiscoverWorkspace(WorkspaceOptions{Cwd: repo, RootOn: true, UserLimits: l.Or(hook.Limits{})})
		out := map[string]string{}
		for _, h := range w.Hooks {
			out[h.Command] = truststore.Digest(h) + " " + strconv.Itoa(h.TimeoutMs)
		}
		return out
	}
	a := digests(hook.Limits{TimeoutMs: 5000})
	b := digests(hook.Limits{TimeoutMs: 6000})
	c := digests(hook.Limits{TimeoutMs: 5000, MaxOutputBytes: 1000})
	if len(a) != 3 {
		t.Fatalf("declarations %v", a)
	}
	if a["inherits"] == b["inherits"] || a["inherits"] == c["inherits"] || !strings.HasSuffix(a["inherits"], " 5000") {
		t.Errorf("inherits: %q, %q, %q; want the user's limits resolved and digested", a["inherits"], b["inherits"], c["inherits"])
	}
	for _, k := range []string{"own", "file-level"} {
		if a[k] != b[k] || a[k] != c[k] {
			t.Errorf("%s: digest moved with the user's limits: %q, %q, %q", k, a[k], b[k], c[k])
		}
	}
}
