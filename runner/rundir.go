package runner

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/hookside/hookside/internal/fsid"
	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/output"
	"github.com/hookside/hookside/truststore"
)

// PhysicalDir is the one notion of a directory that hookside both checks
// (workspace root, trust identity, the Site pins are resolved at) and
// starts hooks in: the directory the operating system enters for dir. A
// relative dir counts from the process's directory; "." and ".." are taken
// as the OS takes them, after the symlink before them (`link/..` is the
// parent of link's target, not the directory holding link); the result is
// absolute, clean and free of symlinks, so resolving a word against it
// lexically (truststore/pin) names the file the hook process opens
// (docs/protocol.md §4 "Pins are resolved per session"). Errors: the
// current directory is unknown, dir (or a link in it) does not exist or
// cannot be read (fs.ErrNotExist, fs.ErrPermission), or dir is not a
// directory (ErrCwd).
func PhysicalDir(dir string) (string, error) {
	if !filepath.IsAbs(dir) {
		wd, err := os.Getwd()
		if err != nil {
			return "", err
		}
		// Not filepath.Join: that would clean `link/..` lexically.
		dir = strings.TrimSuffix(wd, string(filepath.Separator)) + string(filepath.Separator) + dir
	}
	p, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return "", err
	}
	if fi, err := os.Stat(p); err != nil {
		return "", err
	} else if !fi.IsDir() {
		return "", fmt.Errorf("%s: %w", p, ErrCwd)
	}
	return filepath.Abs(p)
}

// runDir is the directory a hook of this session starts in when the host
// reports dir (absolute) for one run (the claude profile's input cwd), and
// whether it resolved (PhysicalDir). Inside the workspace root it is
// spelled under the root as the session knows it (root/rel, rel free of
// symlinks and dots, so it is the same physical directory); outside, the
// physical path. The trust gate is asked about, and the hook started in,
// exactly this directory (truststore.Gate.AdmitAt); a dir that does not
// resolve is given back unchanged with false, and no workspace hook is
// admitted there. The root's PhysicalDir is resolved once per root
// (Session.physRoot): only dir is resolved on each run.
func (s *Session) runDir(dir string) (string, bool) {
	p, _, err := s.resolveRunDir(dir)
	if err != nil {
		return dir, false
	}
	return p, true
}

// resolveRunDir is runDir with why dir did not resolve (PhysicalDir's
// error), and whether the result lies in the workspace root (the root or
// below it: where AdmitAt can admit a workspace hook).
func (s *Session) resolveRunDir(dir string) (string, bool, error) {
	p, err := PhysicalDir(dir)
	if err != nil {
		return "", false, err
	}
	root := s.opts.Cwd
	s.mu.Lock()
	if s.ws != nil && s.ws.Root != "" {
		root = s.ws.Root
	}
	proot, known := s.physRoot[1], root != "" && s.physRoot[0] == root
	s.mu.Unlock()
	if !known {
		if proot, err = PhysicalDir(root); err != nil {
			return p, false, nil
		}
		s.mu.Lock()
		s.physRoot = [2]string{root, proot}
		s.mu.Unlock()
	}
	if rel, in := fsid.Within(proot, p); in {
		return filepath.Join(root, rel), true, nil
	}
	return p, false, nil
}

// ErrRunDirProfile is RunDir's error for a session whose profile gives no
// run a directory of its own: only the claude profile's runs start in
// their input cwd.
var ErrRunDirProfile = errors.New("only claude-profile runs start in a directory of their own (the input cwd)")

// ErrRunDirOutside is RunDir's error for a directory that is not the
// workspace root or below it: a claude-profile run there admits no
// workspace hook (truststore.ReasonCwdOutside), so nothing can be
// reviewed there.
var ErrRunDirOutside = errors.New("is not inside the workspace")

// RunDir is the directory a claude-profile run whose input cwd is dir
// (absolute, or relative to the process's directory) starts in and is
// admitted at: runDir's spelling, under the workspace root. A review at a
// run directory (WorkspaceStatusAt) resolves the pins there, so its grant
// adds the set a run there is admitted by (docs/protocol.md §4 "Pins are
// resolved per session"). Errors: ErrRunDirProfile (not a claude-profile
// session), PhysicalDir's (dir does not exist, cannot be read, or is no
// directory: ErrCwd), ErrRunDirOutside.
func (s *Session) RunDir(dir string) (string, error) {
	if s.dialect.Name != ProfileClaude {
		return "", ErrRunDirProfile
	}
	p, inside, err := s.resolveRunDir(dir)
	if err != nil {
		return "", err
	}
	if !inside {
		return "", fmt.Errorf("%s %w", p, ErrRunDirOutside)
	}
	return p, nil
}

// WorkspaceStatusAt is WorkspaceStatus for hooks that start in the run
// directory dir (RunDir's result; "" = the session directory): the
// workspace's Site is the one AdmitAt admits a run there at
// (truststore.Gate.SiteAt: Dir = dir, the project directory and PATH the
// session's), so truststore.Show pins there and a grant from that Show
// records that site's set next to the others; the evaluations and counts
// are the states a run there gets (truststore.Gate.EvaluateAt). It does
// not report counts (OnAdmissionUpdated follows the session directory).
func (s *Session) WorkspaceStatusAt(dir string) WorkspaceState {
	if dir == "" {
		return s.WorkspaceStatus()
	}
	st := s.workspaceState()
	ws := *st.Workspace
	ws.Site = s.gate.SiteAt(dir)
	ws.BundleDigest = truststore.Show(&ws).BundleDigest
	st.Workspace = &ws
	st.Evaluations = s.gate.EvaluateAt(ws.Declarations, dir)
	st.Counts = enabledCounts(&ws, st.Evaluations)
	st.RunDir = dir
	return st
}

// admitRun is admitAt for a hook starting in dir, the runDir of a
// host-reported directory (resolved: its second result): a workspace hook
// is not admitted where dir did not resolve (StaleDigest,
// truststore.ReasonCwdOutside). The run and `hooks explain` both ask it.
func (s *Session) admitRun(h *hook.Hook, dir string, resolved bool) (truststore.Evaluation, bool) {
	ev, ok := s.admitAt(h, dir)
	if ok && !resolved && h.Source.Kind == hook.SourceWorkspace {
		return truststore.Evaluation{Digest: ev.Digest, State: truststore.StaleDigest, Reason: truststore.ReasonCwdOutside}, false
	}
	return ev, ok
}

// sameDir reports whether a and b are one directory: equal once clean, or
// once physical (PhysicalDir) — the session directory is physical, and a
// path another program recorded (Claude Code's installed_plugins.json
// projectPath) may go through a symlink.
func sameDir(a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	pa, err1 := PhysicalDir(a)
	pb, err2 := PhysicalDir(b)
	return err1 == nil && err2 == nil && pa == pb
}

// noteRunDir fits n (a claude run's trustNotice) to the run's directory
// dir (runDir of the input cwd; resolved), when that is not the session
// directory: inside the workspace root, n.ReviewCommand reviews at dir
// (--run-cwd dir: the pins a run there is admitted by), and when a hook is
// stale there the message says that dir resolves files no review showed
// and names that command; outside it, that no grant can cover a workspace
// hook there (docs/troubleshooting.md §3).
func (s *Session) noteRunDir(n *output.TrustNotice, dir string, resolved bool) {
	if n == nil || !resolved || sameDir(dir, s.opts.Cwd) {
		return
	}
	s.mu.Lock()
	root := s.ws.Root
	s.mu.Unlock()
	outside := !insideDir(root, dir)
	if !outside {
		n.ReviewCommand += " --run-cwd " + ShellWord(dir)
	}
	for _, h := range n.Hooks {
		if h.TrustState != string(truststore.StaleDigest) {
			continue
		}
		if outside {
			n.Message += fmt.Sprintf(" This run's cwd %s is outside the workspace: no grant covers a workspace hook there.", dir)
		} else {
			n.Message += fmt.Sprintf(" This run's cwd %s is not the session directory: a hook stale there resolves files of that directory no review showed; review them where they run: %s", dir, n.ReviewCommand)
		}
		return
	}
}

// insideDir reports whether dir is root or below it, lexically (both
// absolute and clean, as runDir spells a run directory).
func insideDir(root, dir string) bool {
	_, in := fsid.Within(filepath.Clean(root), filepath.Clean(dir))
	return root != "" && in
}
