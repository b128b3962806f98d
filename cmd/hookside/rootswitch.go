package main

import (
	"cmp"
	"fmt"
	"io"
	"path/filepath"

	"github.com/hookside/hookside/internal/home"
	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/runner"
)

// rootSwitchOff counts the hooks (of event, or of every event) that are
// configured but do not run only because the root switch is off (the user
// config does not say "hooks": {"enabled": true}), from the files as the
// session last read them (runner.Session.ExplainEach: no re-reading).
func rootSwitchOff(s *runner.Session, event string) int {
	return rootSwitchOffIn(s.ExplainEach(explainedEvents(event), ""))
}

// explainedEvents are the events rootSwitchOff explains: event, or every
// event (hook.Events) for "".
func explainedEvents(event string) []string {
	if event != "" {
		return []string{event}
	}
	return hook.Events
}

// rootSwitchOffIn is rootSwitchOff of the explanations xs.
func rootSwitchOffIn(xs []runner.Explanation) int {
	n := 0
	for _, x := range xs {
		for _, e := range x.Hooks {
			if e.Reason == runner.WhyRootSwitchOff {
				n++
			}
		}
	}
	return n
}

// printRootSwitchOff says why n configured hooks are not listed and how
// to switch them on.
func printRootSwitchOff(w io.Writer, n int, sf *sessionFlags, s *runner.Session) {
	cfg := userConfigFile(sf)
	if bad := s.UserConfigUnreadable(); bad != nil {
		fmt.Fprintf(w, "%d configured hook(s) are off: the root switch is off, since the user config %s could not be read and nothing it says applies (%s).\n", n, bad.Source, bad.Message)
		fmt.Fprintf(w, "Fix %s (the error above), or pass --hooks-enabled (or set %s=1).\n", hintWord(cfg), runner.EnvHooksEnabled)
		return
	}
	fmt.Fprintf(w, "%d configured hook(s) are off: the root switch is off (the user config does not say \"hooks\": {\"enabled\": true}).\n", n)
	fmt.Fprintf(w, "Switch it on: add \"hooks\": {\"enabled\": true} to %s, or pass --hooks-enabled (or set %s=1).\n", hintWord(cfg), runner.EnvHooksEnabled)
}

// userConfigFile is the absolute path of the user config the flags name
// (--user-config, else <home>/config.json).
func userConfigFile(sf *sessionFlags) string {
	cfg := sf.userConfig
	if cfg == "" {
		cfg = home.ConfigPath(cmp.Or(sf.home, home.Default()))
	}
	if a, err := filepath.Abs(cfg); err == nil {
		cfg = a
	}
	return cfg
}

// rootSwitch is `hooks list --json`'s rootSwitch: whether the root switch
// is on and the layer that turns it on: "cli" (--hooks-enabled), "env"
// ($HOOKSIDE_HOOKS_ENABLED), "profile" (claude: always on), "user" (the
// user config's "hooks": {"enabled": true}), "project" (a workspace file's),
// or "default" (off), the first that applies. file is the config file that
// says it (user, project), or where to say it (default: the user config).
type rootSwitch struct {
	Enabled bool   `json:"enabled"`
	Layer   string `json:"layer"`
	File    string `json:"file,omitempty"`
}

func rootSwitchOf(s *runner.Session, sf *sessionFlags) rootSwitch {
	on, layer, file := s.RootSwitch()
	rs := rootSwitch{Enabled: on, Layer: layer, File: file}
	switch {
	case layer == runner.RootLayerHost && sf.hooksEnabled:
		rs.Layer = "cli"
	case layer == runner.RootLayerHost:
		rs.Layer = "env"
	case layer == runner.RootLayerUser, layer == runner.RootLayerDefault:
		rs.File = userConfigFile(sf)
	}
	return rs
}
