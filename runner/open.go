package runner

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/hookside/hookside/internal/home"
	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/truststore"
)

// ProfileError is returned by Open for a profile that names no session
// dialect (PROTOCOL.md §2 session/open.profile).
type ProfileError struct{ Profile string }

func (e *ProfileError) Error() string {
	return fmt.Sprintf("unknown profile %q (want %s)", e.Profile, strings.Join(hook.ProfileNames(), " or "))
}

// ErrCwd is wrapped by Open's error for a Cwd that is not an existing
// directory.
var ErrCwd = errors.New("not an existing directory")

// Open is the one session builder every front end calls (rpc session/open
// and the throwaway sessions of workspaceHooks/status; the CLI's hooks and
// trust commands). Over NewSession it:
//
//   - validates the profile once (*ProfileError) and the cwd (ErrCwd);
//   - makes Cwd physical (PhysicalDir: absolute, symlinks resolved, so
//     the directory checked is the directory the hooks start in) and
//     SparkUserDir, UserDir, TranscriptPath, ManagedSettingsPath
//     and PluginDirs absolute and clean;
//   - defaults Workspace.Home to home.Default(), UserConfigPath to
//     <home>/config.json and WorkspaceID to truststore.CanonicalID(Cwd).
//
// Configuration problems are diagnostics, as with NewSession; the error is
// only for options no session can be opened with.
func Open(opts SessionOptions) (*Session, []hook.Diagnostic, error) {
	d, ok := hook.Profile(opts.Profile)
	if !ok {
		return nil, nil, &ProfileError{Profile: opts.Profile}
	}
	opts.Profile = d.Name
	if opts.Cwd == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, nil, err
		}
		opts.Cwd = wd
	}
	// The one directory the workspace root, the trust identity, the pins
	// and the hooks' working directory all derive from (PhysicalDir).
	abs, err := PhysicalDir(opts.Cwd)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", opts.Cwd, ErrCwd)
	}
	opts.Cwd = abs
	for _, p := range []*string{&opts.SparkUserDir, &opts.UserDir, &opts.TranscriptPath, &opts.ManagedSettingsPath} {
		if *p != "" {
			if a, err := filepath.Abs(*p); err == nil {
				*p = a
			}
		}
	}
	if len(opts.PluginDirs) > 0 {
		dirs := make([]string, len(opts.PluginDirs))
		for i, p := range opts.PluginDirs {
			dirs[i] = p
			if a, err := filepath.Abs(p); err == nil {
				dirs[i] = a
			}
		}
		opts.PluginDirs = dirs
	}
	if opts.Workspace.Home == "" {
		opts.Workspace.Home = home.Default()
	}
	if opts.UserConfigPath == "" {
		opts.UserConfigPath = home.ConfigPath(opts.Workspace.Home)
	} else if !SamePath(opts.UserConfigPath, home.ConfigPath(opts.Workspace.Home)) {
		opts.UserConfigNamed = true
	}
	if opts.WorkspaceID == "" {
		opts.WorkspaceID = truststore.CanonicalID(abs)
	}
	s, diags := NewSession(opts)
	return s, diags, nil
}
