package config

import "github.com/hookside/hookside/internal/hook"

// Set is the ordered, switched-on hook list for one configuration state, as
// returned by Loader.Load. A Set is immutable: never modify its slices;
// derive a new Set with WithWorkspace or WithRootEnabled instead. Callers
// may cache data derived from a Set keyed by its pointer (or Version).
//
// Order (lifecycle-hooks-and-workspace-trust §"配置格式与默认值",
// configured-runner.ts:174): user hooks, then workspace hooks (inserted by
// WithWorkspace before the first non-user source), then plugin hooks in
// LoaderOptions.PluginDirs order, then internal hooks. Within a source,
// declaration order.
type Set struct {
	// Hooks are the hooks that may run (before matcher filtering and, for
	// workspace hooks, trust admission), in run order.
	Hooks []hook.Hook
	// Diagnostics are the problems found in every source, user first then
	// plugins in order. They never stop other sources from loading.
	Diagnostics []hook.Diagnostic
	// RootEnabled is the runtime root switch as far as the Loader can see:
	// true only when the user config says hooks.enabled: true (absent =
	// false, spec §"配置格式与默认值"). Plugin hooks do not turn it on.
	// WithRootEnabled turns it on for a workspace file's hooks.enabled.
	RootEnabled bool
	// Version increases by one each time the Loader builds a new Set; sets
	// derived with WithWorkspace / WithRootEnabled keep their parent's.
	Version uint64
	// UserLimits is the user config's hooks.timeoutMs / maxOutputBytes over
	// the defaults: the fallback a workspace file resolves against
	// (File.Resolve(set.UserLimits)). Never zero.
	UserLimits hook.Limits
	// StorageDir is the user config's storage.dir as written ("" if unset).
	StorageDir string
	// Dialect is the session dialect the Set was loaded with
	// (LoaderOptions.Dialect).
	Dialect *hook.Dialect
	// Inactive are declarations that load but do not run because a switch
	// is off (Reason is ReasonDisabled, ReasonRootSwitchOff or
	// ReasonFileDisabled), for `hooks explain`. Workspace declarations are
	// reported by workspace discovery instead.
	Inactive []InactiveHook
	// Rejected are the declarations dropped while parsing (invalid, over a
	// limit, unsupported), user file first then plugins.
	Rejected []Rejected
	// Workspace is the workspace scope as discovered with this Set's user
	// limits and root switch (nil without LoaderOptions.Cwd). Its hooks are
	// not in Hooks: they need trust first (WithWorkspace adds the admitted
	// ones).
	Workspace *Workspace
	// WorkspacePlugins are the declarations of LoaderOptions.WorkspacePluginDirs
	// (disabled ones too), workspace declarations in plugin order: they
	// are not in Hooks, and run only as workspace hooks after admission.
	WorkspacePlugins []hook.Hook

	userCount int            // Hooks[:userCount] are the user hooks
	held      []hook.Hook    // user hooks off only because the root switch is off
	byEvent   [7][]hook.Hook // per Events index, capacity-capped
	// byOther holds the hooks of events outside the seven (the claude
	// dialect's other events), capacity-capped.
	byOther map[string][]hook.Hook
}

// Reasons a loaded declaration does not run (InactiveHook.Reason).
const (
	ReasonDisabled      = "disabled"        // its own enabled: false
	ReasonRootSwitchOff = "root_switch_off" // the user config does not say hooks.enabled: true
	ReasonFileDisabled  = "file_disabled"   // its file says hooks.enabled: false
)

// InactiveHook is a loaded declaration that does not run, and why.
type InactiveHook struct {
	Hook   hook.Hook
	Reason string
}

// index fills byEvent from Hooks.
func (s *Set) index() {
	var counts [7]int
	for i := range s.Hooks {
		if e := hook.EventIndex(s.Hooks[i].Event); e >= 0 {
			counts[e]++
		}
	}
	for e, n := range counts {
		s.byEvent[e] = nil
		if n > 0 {
			s.byEvent[e] = make([]hook.Hook, 0, n)
		}
	}
	s.byOther = nil
	for _, h := range s.Hooks {
		if e := hook.EventIndex(h.Event); e >= 0 {
			s.byEvent[e] = append(s.byEvent[e], h)
		} else {
			if s.byOther == nil {
				s.byOther = map[string][]hook.Hook{}
			}
			s.byOther[h.Event] = append(s.byOther[h.Event], h)
		}
	}
	for ev, hs := range s.byOther {
		s.byOther[ev] = hs[:len(hs):len(hs)]
	}
}

// ForEvent returns the hooks of one event in run order (nil for an unknown
// event, none configured, or a nil Set). The slice is precomputed when the
// Set is built: the call does not allocate. Do not modify it; its capacity
// is capped, so append copies.
func (s *Set) ForEvent(event string) []hook.Hook {
	if s == nil {
		return nil
	}
	e := hook.EventIndex(event)
	if e < 0 {
		return s.byOther[event]
	}
	return s.byEvent[e]
}

// WithWorkspace returns a new Set with ws (already trust-filtered or not —
// admission happens per run) placed after the user hooks and before the
// first non-user source, replacing any workspace hooks s already had. ws is
// used in the given order and its Source.Kind is not checked. s must not be
// nil and is not modified; Diagnostics are shared with s.
func (s *Set) WithWorkspace(ws []hook.Hook) *Set {
	n := *s
	n.Hooks = make([]hook.Hook, 0, len(s.Hooks)+len(ws))
	n.Hooks = append(n.Hooks, s.Hooks[:s.userCount]...)
	n.Hooks = append(n.Hooks, ws...)
	for _, h := range s.Hooks[s.userCount:] {
		if h.Source.Kind != hook.SourceWorkspace {
			n.Hooks = append(n.Hooks, h)
		}
	}
	n.index()
	return &n
}

// WithRootEnabled returns s with the root switch on: the user hooks that
// were off only because the user config omits hooks.enabled come back, in
// front. Use it when a workspace file says hooks.enabled: true — the spec
// ORs the root switch over the default, user and project layers
// (workspace-hook-config.ts:130). Plugin hooks never do this (the gap
// hookside fixes, spec §"插件钩子与工作区钩子"). A user config with
// hooks.enabled: false stays off. Returns s itself when the root is
// already on; s must not be nil.
func (s *Set) WithRootEnabled() *Set {
	if s.RootEnabled {
		return s
	}
	n := *s
	n.RootEnabled = true
	n.held = nil
	n.Diagnostics = nil
	for _, d := range s.Diagnostics {
		if d.Code != hook.CodeHooksDisabled {
			n.Diagnostics = append(n.Diagnostics, d)
		}
	}
	n.Inactive = nil
	for _, ih := range s.Inactive {
		if ih.Reason != ReasonRootSwitchOff {
			n.Inactive = append(n.Inactive, ih)
		}
	}
	n.Hooks = make([]hook.Hook, 0, len(s.held)+len(s.Hooks))
	n.Hooks = append(n.Hooks, s.held...)
	n.Hooks = append(n.Hooks, s.Hooks...)
	n.userCount = s.userCount + len(s.held)
	n.index()
	return &n
}
