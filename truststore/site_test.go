package truststore

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/truststore/pin"
)

// grantAt grants h as a review at the Site at would: the pins shown
// there (Show, GrantShown).
func grantAt(t *testing.T, g *Gate, root string, at pin.Site, h hook.Hook) Declaration {
	t.Helper()
	w := NewWorkspaceAt(root, at, nil, []hook.Hook{h}, []bool{true})
	if err := GrantShown(g, "w", Show(w), w.Declarations); err != nil {
		t.Fatal(err)
	}
	return w.Declarations[0]
}

func siteGate(t *testing.T, root string, at pin.Site) *Gate {
	g := NewGate(GateOptions{WorkspaceID: "w", Root: root, Site: at, Feature: true, Dir: filepath.Join(t.TempDir(), "security")})
	t.Cleanup(g.hashes.Close) // an open root keeps its directory from being deleted on Windows
	return g
}

// changesAt returns the evaluation and the Changes.Scripts Describe reports for the
// declaration at the Site at of a gate sharing g's trust file.
func changesAt(t *testing.T, g *Gate, root string, at pin.Site, h hook.Hook) (Evaluation, []ScriptChange) {
	t.Helper()
	other := NewGate(GateOptions{WorkspaceID: "w", Root: root, Site: at, Feature: true, Dir: filepath.Dir(g.Store().Path())})
	defer other.hashes.Close()
	w := NewWorkspaceAt(root, at, nil, []hook.Hook{h}, []bool{true})
	evs := other.Evaluate(w.Declarations)
	ds := Describe(w, evs, nil)
	if ds[0].Changes == nil {
		return evs[0], nil
	}
	return evs[0], ds[0].Changes.Scripts
}

// TestGrantCoversOnlyItsSite: a grant made in the workspace root does not
// cover a session in a subdirectory whose ./hooks/g.sh is another file —
// present at the grant or added after it — nor, the other way round, a
// session that no longer resolves a pin the grant has; the same Site stays
// trusted (PinsMatch).
func TestGrantCoversOnlyItsSite(t *testing.T) {
	for _, tc := range []struct {
		name, command string
		process       []string
		good, bad     string
	}{
		{"dot_slash", "./hooks/g.sh", nil, "hooks/g.sh", "sub/hooks/g.sh"},
		{"relative_no_interpreter", "hooks/g.sh", nil, "hooks/g.sh", "sub/hooks/g.sh"},
		{"process_args", "sh", []string{"scripts/x.sh"}, "scripts/x.sh", "sub/scripts/x.sh"},
		{"project_dir_var", "${CLAUDE_PROJECT_DIR}/hooks/g.sh", nil, "hooks/g.sh", "sub/hooks/g.sh"},
	} {
		for _, when := range []string{"before_grant", "after_grant"} {
			t.Run(tc.name+"/"+when, func(t *testing.T) {
				root := t.TempDir()
				sub := filepath.Join(root, "sub")
				writeFile(t, filepath.Join(root, tc.good), "#!/bin/sh\ntrue\n")
				if when == "before_grant" {
					writeFile(t, filepath.Join(root, tc.bad), "#!/bin/sh\necho evil\n")
				} else if err := os.MkdirAll(sub, 0o755); err != nil {
					t.Fatal(err)
				}
				h := cmdHook(tc.command)
				if tc.process != nil {
					h.Type, h.Args = hook.TypeProcess, tc.process
				}
				top := pin.Site{Dir: root, ProjectDir: root}
				g := siteGate(t, root, top)
				d := grantAt(t, g, root, top, h)
				if when == "after_grant" {
					writeFile(t, filepath.Join(root, tc.bad), "#!/bin/sh\necho evil\n")
				}
				if ev := g.Admit(d); ev.State != TrustedPersistent {
					t.Fatalf("root session: %+v, want trusted", ev)
				}
				at := pin.Site{Dir: sub, ProjectDir: sub}
				ev, changes := changesAt(t, g, root, at, h)
				if ev.State != StaleDigest || ev.Reason != ReasonScriptChanged {
					t.Fatalf("sub session: %+v, want stale_digest/script_changed", ev)
				}
				if len(changes) != 1 || changes[0].Path != tc.bad || changes[0].Change != "added" || changes[0].New.Kind != "file" {
					t.Fatalf("changes %+v, want %s added", changes, tc.bad)
				}
				if ev := g.AdmitAt(d, sub); tc.name != "project_dir_var" && ev.State != StaleDigest {
					t.Fatalf("AdmitAt(sub): %+v, want stale_digest", ev)
				}
			})
		}
	}
}

// TestGrantFromSubdirectoryNotRoot: a grant made in a subdirectory pins
// what it resolves there; the root session resolves a part of it (only
// hooks/g.sh, the grant's, unchanged) and is covered; once hooks/g.sh is
// edited, both sessions are stale.
func TestGrantFromSubdirectoryNotRoot(t *testing.T) {
	root := t.TempDir()
	sub := filepath.Join(root, "sub")
	writeFile(t, filepath.Join(root, "hooks/g.sh"), "true\n")
	writeFile(t, filepath.Join(root, "sub/hooks/g.sh"), "true\n")
	h := cmdHook("./hooks/g.sh")
	at := pin.Site{Dir: sub, ProjectDir: sub}
	g := siteGate(t, root, at)
	d := grantAt(t, g, root, at, h)
	if ev := g.Admit(d); ev.State != TrustedPersistent {
		t.Fatalf("sub session: %+v", ev)
	}
	if ev, _ := changesAt(t, g, root, pin.Site{Dir: root}, h); ev.State != TrustedPersistent {
		t.Fatalf("root session: %+v, want covered by the sub grant (hooks/g.sh unchanged)", ev)
	}
	writeFile(t, filepath.Join(root, "hooks/g.sh"), "echo evil\n")
	ev, changes := changesAt(t, g, root, pin.Site{Dir: root}, h)
	if ev.State != StaleDigest || len(changes) == 0 {
		t.Fatalf("root session after an edit: %+v %+v, want stale", ev, changes)
	}
	if ev := g.Admit(d); ev.State != StaleDigest {
		t.Fatalf("sub session after an edit: %+v, want stale", ev)
	}
}

// TestPathLookupPinned: a bare command name is looked up in PATH; a PATH
// entry inside the workspace (absolute, or relative to the session
// directory) pins name there, absent until a file appears — then the
// grant no longer holds. A session whose PATH has no such entry resolves
// none of the grant's files (guard is found outside the workspace): no
// workspace file runs, and the grant covers it.
func TestPathLookupPinned(t *testing.T) {
	root, elsewhere := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(root, "bin/.keep"), "")
	h := cmdHook("guard --check")
	for _, entry := range []string{filepath.Join(root, "bin"), "bin"} {
		t.Run(filepath.Base(entry)+map[bool]string{true: "_abs", false: "_rel"}[filepath.IsAbs(entry)], func(t *testing.T) {
			os.Remove(filepath.Join(root, "bin/guard"))
			at := pin.Site{Dir: root, Path: []string{elsewhere, entry}}
			g := siteGate(t, root, at)
			d := grantAt(t, g, root, at, h)
			st, err := Open(filepath.Dir(g.Store().Path()), Options{}).Load()
			if err != nil {
				t.Fatal(err)
			}
			rec, _ := st.Lookup("w", d.Digest)
			if rec.ScriptPins["bin/guard"] != pin.AbsentPin {
				t.Fatalf("pins %+v, want bin/guard absent", rec.ScriptPins)
			}
			if ev := g.Admit(d); ev.State != TrustedPersistent {
				t.Fatalf("granted: %+v", ev)
			}
			if ev, _ := changesAt(t, g, root, pin.Site{Dir: root, Path: []string{elsewhere}}, h); ev.State != TrustedPersistent {
				t.Fatalf("session without the PATH entry: %+v, want covered (nothing of the workspace resolved)", ev)
			}
			writeFile(t, filepath.Join(root, "bin/guard"), "#!/bin/sh\necho evil\n")
			if ev := g.Admit(d); ev.State != StaleDigest || ev.Reason != ReasonScriptChanged {
				t.Fatalf("bin/guard appeared: %+v, want stale_digest/script_changed", ev)
			}
		})
	}
}

// TestMatchesCacheSeesNewCandidate: the remembered resolution is reused
// only while the candidates that named nothing still name nothing: a bare
// name that appears in the session directory (pinned only when it exists)
// breaks the match at the next check.
func TestMatchesCacheSeesNewCandidate(t *testing.T) {
	root := t.TempDir()
	h := cmdHook("g.sh")
	at := pin.Site{Dir: root}
	g := siteGate(t, root, at)
	d := grantAt(t, g, root, at, h)
	for range 3 {
		if ev := g.Admit(d); ev.State != TrustedPersistent {
			t.Fatalf("granted: %+v", ev)
		}
	}
	writeFile(t, filepath.Join(root, "g.sh"), "echo evil\n")
	if ev := g.Admit(d); ev.State != StaleDigest {
		t.Fatalf("g.sh appeared: %+v, want stale_digest", ev)
	}
}

// TestAdmitAtCwdOutsideRoot: a grant made in the workspace does not admit
// a run whose directory lies outside the workspace root (the claude
// profile's input cwd): `.claude/hooks/proj.sh` would run the file there,
// which no review saw. Inside the root (the root itself, a subdirectory
// resolving the same pins) the grant still holds.
func TestAdmitAtCwdOutsideRoot(t *testing.T) {
	root := t.TempDir()
	other := t.TempDir()
	writeFile(t, filepath.Join(root, ".claude/hooks/proj.sh"), "#!/bin/sh\ntrue\n")
	writeFile(t, filepath.Join(other, ".claude/hooks/proj.sh"), "#!/bin/sh\ntrue\n") // same content
	top := pin.Site{Dir: root, ProjectDir: root}
	g := siteGate(t, root, top)
	d := grantAt(t, g, root, top, cmdHook(".claude/hooks/proj.sh"))
	if ev := g.AdmitAt(d, root); ev.State != TrustedPersistent {
		t.Fatalf("AdmitAt(root): %+v, want trusted", ev)
	}
	for _, dir := range []string{other, filepath.Join(root, "..", filepath.Base(other))} {
		if ev := g.AdmitAt(d, dir); ev.State != StaleDigest || ev.Reason != ReasonCwdOutside {
			t.Fatalf("AdmitAt(%s): %+v, want stale_digest/%s", dir, ev, ReasonCwdOutside)
		}
	}
}

// TestEvaluateAtIsAdmitAt: EvaluateAt gives every declaration the state
// AdmitAt gives it in that directory (the Site of SiteAt: Dir moved, the
// project directory staying the session's), and a grant pinned at SiteAt
// admits runs there while the session's own set stays.
func TestEvaluateAtIsAdmitAt(t *testing.T) {
	root := t.TempDir()
	sub := filepath.Join(root, "sub")
	writeFile(t, filepath.Join(root, ".claude/hooks/g.sh"), "#!/bin/sh\ntrue\n")
	writeFile(t, filepath.Join(sub, ".claude/hooks/g.sh"), "#!/bin/sh\necho sub\n")
	top := pin.Site{Dir: root, ProjectDir: root}
	g := siteGate(t, root, top)
	if at := g.SiteAt(sub); at.Dir != sub || at.ProjectDir != root {
		t.Fatalf("SiteAt(sub) = %+v", at)
	}
	if at := g.SiteAt(""); at.Dir != root {
		t.Fatalf("SiteAt(\"\") = %+v, want the session's", at)
	}
	d := grantAt(t, g, root, top, cmdHook("bash .claude/hooks/g.sh"))
	check := func(what string, dir string, want TrustState) {
		t.Helper()
		evs := g.EvaluateAt([]Declaration{d}, dir)
		if ev := g.AdmitAt(d, dir); evs[0].State != want || ev.State != want || ev.Reason != evs[0].Reason {
			t.Fatalf("%s: EvaluateAt %+v, AdmitAt %+v, want %s", what, evs[0], ev, want)
		}
	}
	check("sub before its grant", sub, StaleDigest)
	check("root", "", TrustedPersistent)
	grantAt(t, g, root, g.SiteAt(sub), d.Hook)
	check("sub after its grant", sub, TrustedPersistent)
	check("root after the grant at sub", root, TrustedPersistent)
	if evs := g.EvaluateAt([]Declaration{d}, t.TempDir()); evs[0].Reason != ReasonCwdOutside {
		t.Fatalf("outside: %+v", evs[0])
	}
}
