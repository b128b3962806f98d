package runner

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/hookside/hookside/internal/fsid"
	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/runner/config"
	"github.com/hookside/hookside/truststore"
)

// Profiles (PROTOCOL.md §2 session/open.profile).
const (
	ProfileZcode = "zcode"
	ProfileSpark = "spark"
)

// ReasonEarlierBlock is the reason of a run skipped because an earlier hook
// of the same event blocked, in the spark dialect (hooks-v2-handbook §1.3:
// 任一条被拦截就立即返回，不再执行后续 hook).
const ReasonEarlierBlock = "earlier_block"

// DefaultSparkUserDir is ~/.spark, or "" when the home directory is unknown.
func DefaultSparkUserDir() string {
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return ""
	}
	return filepath.Join(home, hook.Spark.UserDir)
}

// fileProbe remembers what a candidate file looked like when it was read.
type fileProbe struct {
	path  string
	state probeState
}

type probeState struct {
	exists bool
	mtime  int64
	size   int64
	mode   fs.FileMode
}

func probeOf(path string) probeState {
	fi, err := os.Stat(path)
	if err != nil {
		return probeState{}
	}
	return probeState{exists: true, mtime: fi.ModTime().UnixNano(), size: fi.Size(), mode: fi.Mode()}
}

func probesChanged(ps []fileProbe) bool {
	for _, p := range ps {
		if probeOf(p.path) != p.state {
			return true
		}
	}
	return false
}

// discoverSpark reads <cwd>/.spark/settings.json and
// <cwd>/.spark/settings.local.json: the spark dialect's project and local
// scopes. They are workspace hooks (spec/README.md: hookside closes the
// spec's blind spot): every declaration is digested like a zcode workspace
// declaration and goes through the same trust gate. The workspace root is
// the cwd. Files are read through an os.Root at the cwd, so a symlink that
// leaves it is refused (truststore.CodeOutsideRoot). A spark file has no
// enabled switches besides a declaration's own `enabled`.
func discoverSpark(d *hook.Dialect, cwd string) (*truststore.Workspace, []config.Rejected, []fileProbe) {
	w := &truststore.Workspace{Root: cwd, Cwd: cwd}
	var rejected []config.Rejected
	var probes []fileProbe
	var hooks []hook.Hook
	root, rootErr := os.OpenRoot(cwd)
	if rootErr == nil {
		defer root.Close()
	}
	// d.WorkspaceFiles in run order (spark: project, then local). Their
	// discovery orders are fixed (0 and 1), so adding or removing one file
	// never changes the other's digests.
	for order, rel := range d.WorkspaceFiles {
		path := filepath.Join(cwd, filepath.FromSlash(rel))
		probes = append(probes, fileProbe{path: path, state: probeOf(path)})
		if rootErr != nil {
			continue
		}
		data, err := readRooted(root, rel)
		switch {
		case err == nil:
		case errors.Is(err, fs.ErrNotExist):
			continue
		case fsid.IsEscape(err):
			w.Diagnostics = append(w.Diagnostics, hook.Diagnostic{Code: truststore.CodeOutsideRoot, Severity: hook.SeverityWarning,
				Source: path, Message: fmt.Sprintf("%s leads outside the workspace root %s (symlink); not read", path, cwd)})
			continue
		default:
			w.Diagnostics = append(w.Diagnostics, hook.Diagnostic{Code: hook.CodeReadError, Severity: hook.SeverityError,
				Source: path, Message: fmt.Sprintf("read %s: %v", path, err)})
			continue
		}
		f, diags := config.ParseSettingsFile(d, path, data, hook.SourceWorkspace)
		w.Diagnostics = append(w.Diagnostics, diags...)
		rejected = append(rejected, f.Rejected...)
		w.Files = append(w.Files, truststore.WorkspaceFile{Path: path, RelativePath: rel, DiscoveryOrder: order, Content: data})
		for _, h := range f.Hooks {
			h.Source.RelativePath, h.Source.DiscoveryOrder = rel, order
			hooks = append(hooks, h)
		}
	}
	w.Declarations = make([]truststore.Declaration, len(hooks))
	w.Enabled = make([]bool, len(hooks))
	for i, h := range hooks {
		w.Declarations[i] = truststore.Declare(h)
		w.Enabled[i] = h.Enabled == nil || *h.Enabled
	}
	w.BundleDigest = truststore.Show(w).BundleDigest
	return w, rejected, probes
}

// readRooted reads rel under root, refusing non-regular and oversized files.
func readRooted(root *os.Root, rel string) ([]byte, error) {
	f, err := fsid.OpenInRoot(root, filepath.FromSlash(rel))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("not a regular file")
	}
	data, err := io.ReadAll(io.LimitReader(f, hook.MaxConfigFileBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > hook.MaxConfigFileBytes {
		return nil, fmt.Errorf("larger than %d bytes", hook.MaxConfigFileBytes)
	}
	return data, nil
}
