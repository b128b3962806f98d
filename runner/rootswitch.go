package runner

import (
	"path/filepath"

	"github.com/hookside/hookside/internal/hook"
)

// Layers of the root switch RootSwitch reports.
const (
	// RootLayerHost: SessionOptions.Workspace.HooksEnabled, i.e. the
	// command line (--hooks-enabled), the environment (EnvHooksEnabled) or
	// the host.
	RootLayerHost = "host"
	// RootLayerUser: the user config says "hooks": {"enabled": true}.
	RootLayerUser = "user"
	// RootLayerProject: a workspace config file says "hooks": {"enabled":
	// true} (it turns the switch on for the workspace hooks).
	RootLayerProject = "project"
	// RootLayerProfile: the profile's user scope is its own settings file
	// (claude), whose hooks need no switch: always on.
	RootLayerProfile = "profile"
	// RootLayerDefault: no layer turns it on; off (lifecycle-hooks-and-workspace-trust
	// §"配置格式与默认值").
	RootLayerDefault = "default"
)

// RootSwitch reports whether the root switch is on and the first layer
// that turns it on, in the order host, profile, user, project (file is
// then the workspace file that says so); off is RootLayerDefault. The
// configuration is re-read if it changed on disk.
func (s *Session) RootSwitch() (enabled bool, layer, file string) {
	s.current()
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.opts.Workspace.HooksEnabled:
		return true, RootLayerHost, ""
	case s.dialect.UserSettingsFile != "":
		return true, RootLayerProfile, ""
	case s.userSet != nil && s.userSet.RootEnabled:
		return true, RootLayerUser, ""
	}
	if s.found != nil {
		for _, f := range s.found.Files {
			if f.Enabled != nil && *f.Enabled {
				return true, RootLayerProject, f.Path
			}
		}
	}
	return false, RootLayerDefault, ""
}

// UserConfigUnreadable is the error that kept the user config from loading
// as the session last read it (not JSON, not an object, unreadable: a
// config_parse_error diagnostic with its file:line:col), or nil. Nothing
// that file says applies then, its "hooks": {"enabled": true} included:
// a CLI that says the root switch is off names this instead of asking for
// a setting the file may well hold.
func (s *Session) UserConfigUnreadable() *hook.Diagnostic {
	s.current()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.userSet == nil || s.opts.UserConfigPath == "" {
		return nil
	}
	path := s.opts.UserConfigPath
	if a, err := filepath.Abs(path); err == nil {
		path = a
	}
	for i, d := range s.userSet.Diagnostics {
		if d.Code == hook.CodeParseError && d.InFile(path) {
			return &s.userSet.Diagnostics[i]
		}
	}
	return nil
}
