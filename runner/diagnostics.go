package runner

import (
	"log/slog"

	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/runner/config"
	"github.com/hookside/hookside/truststore"
)

// fileDiagnostics are the problems of the configuration files as set,
// found and ws read them: a claude session's settings switches as the
// files are now (claudeSwitchDiagnostics), the loader's (user, settings
// and plugin files), workspace discovery's, the process hooks that
// cannot start (CodeProcessNotFound), the command hooks whose script is
// missing (CodeCommandScriptNotFound) and the hooks whose script has CRLF
// line endings (CodeScriptCRLF). Each diagnostic is listed once: a
// file read in two roles (cwd the user directory's parent, e.g. claude run
// in ~, where ~/.claude/settings.json is both the user and the project
// settings) would otherwise give the same problem twice.
func (s *Session) fileDiagnostics(set *config.Set, found *config.Workspace, ws *truststore.Workspace) []hook.Diagnostic {
	diags := append(s.claudeSwitchDiagnostics(), set.Diagnostics...)
	diags = append(diags, found.Diagnostics...)
	diags = append(diags, s.processDiagnostics(allHooks(set.Hooks, ws))...)
	seen := make(map[hook.Diagnostic]bool, len(diags))
	out := diags[:0]
	for _, d := range diags {
		if !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	return out
}

// reportReload logs (warning) and passes to OnDiagnostic each diagnostic
// of the session's current reading of its files that the last reported
// reading did not have, then makes the current reading the reported one.
// A reading is reported once (Set.Version); the diagnostics NewSession
// returned are the first reading's. A broken file's hooks are then already out of the
// plans, as they are for a file broken at open: a file that cannot be
// parsed contributes no hooks until it can be again.
func (s *Session) reportReload() {
	s.diagMu.Lock()
	defer s.diagMu.Unlock()
	s.mu.Lock()
	set, found, ws := s.set, s.found, s.ws
	s.mu.Unlock()
	if set.Version <= s.diagVersion {
		return
	}
	diags := s.fileDiagnostics(set, found, ws)
	now := make(map[hook.Diagnostic]bool, len(diags))
	for _, d := range diags {
		if !now[d] && !s.reported[d] {
			slog.Warn("configuration problem found on reload", "session", s.opts.ID,
				"code", d.Code, "severity", d.Severity, "source", d.Source, "message", d.Message)
			if s.opts.OnDiagnostic != nil {
				s.opts.OnDiagnostic(d)
			}
		}
		now[d] = true
	}
	s.diagVersion, s.reported = set.Version, now
}
