package runner

import (
	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/runner/config"
	"github.com/hookside/hookside/truststore"
)

// DescribeWorkspace is truststore.Describe of w (a WorkspaceStatus) with
// each switched-off declaration's OffReason set: which of the three
// enabled switches keeps it off (lifecycle-hooks-and-workspace-trust
// §"按什么摘要信任": 来源文件、声明与根开关) — WhyDisabled (the
// declaration's own "enabled": false), WhyFileDisabled (its file's
// hooks.enabled: false) or WhyRootSwitchOff (the user config's root
// switch), the reasons `hooks explain` gives. sh nil: truststore.Show.
func (s *Session) DescribeWorkspace(w WorkspaceState, sh *truststore.Shown) []truststore.DeclarationStatus {
	out := truststore.Describe(w.Workspace, w.Evaluations, sh)
	s.mu.Lock()
	found := s.found
	s.mu.Unlock()
	for i := range out {
		if i < len(w.Workspace.Enabled) && !w.Workspace.Enabled[i] {
			out[i].OffReason = offReason(&w.Workspace.Declarations[i].Hook, found)
		}
	}
	return out
}

// offReason is the switch keeping the switched-off workspace declaration h
// off: its own enabled:false first, then its file's, else the root switch.
func offReason(h *hook.Hook, found *config.Workspace) string {
	switch {
	case h.Enabled != nil && !*h.Enabled:
		return WhyDisabled
	case found != nil && found.FileDisabled(h.Source.Path):
		return WhyFileDisabled
	}
	return WhyRootSwitchOff
}
