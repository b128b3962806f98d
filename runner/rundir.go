package runner

import (
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
	p, err := PhysicalDir(dir)
	if err != nil {
		return dir, false
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
			return p, true
		}
		s.mu.Lock()
		s.physRoot = [2]string{root, proot}
		s.mu.Unlock()
	}
	if rel, in := fsid.Within(proot, p); in {
		return filepath.Join(root, rel), true
	}
	return p, true
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

// noteRunDir adds to n (a claude run's trustNotice) why a hook stale at
// the run's directory cannot be reviewed from there: the run's cwd dir
// (resolved) is not the session directory, and a review resolves the
// pins at the session directory (docs/troubleshooting.md §3).
func noteRunDir(n *output.TrustNotice, dir, sessionDir string, resolved bool) {
	if n == nil || !resolved || sameDir(dir, sessionDir) {
		return
	}
	for _, h := range n.Hooks {
		if h.TrustState == string(truststore.StaleDigest) {
			n.Message += fmt.Sprintf(" This run's cwd %s is not the session directory: a hook stale there resolves files of that directory no review showed, and a review (which resolves at the session directory) cannot cover them yet; write such hooks to resolve alike everywhere (\"$CLAUDE_PROJECT_DIR\"/…; docs/troubleshooting.md §3).", dir)
			return
		}
	}
}
