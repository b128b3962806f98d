package runner

import (
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/runner/config"
	"github.com/hookside/hookside/truststore"
	"github.com/hookside/hookside/truststore/pin"
)

// trustWorkspace digests the workspace scope the loader found: every
// declaration of every dialect goes through the same trust gate
// (spec/README.md: hookside closes the spark spec's blind spot of project
// files that run silently). The workspace plugins (config.Set.WorkspacePlugins:
// plugins only the workspace scope switches on) follow the settings
// files' declarations: they are digested, pinned (truststore.PinRoot) and
// admitted exactly like the hooks of .claude/settings.json, and a
// declaration's own `enabled` is its only switch. Pins are resolved at
// at (the session's pinSite; its Dir defaults to found.Cwd).
func trustWorkspace(found *config.Workspace, plugins []hook.Hook, at pin.Site) *truststore.Workspace {
	files := make([]truststore.SourceFile, len(found.Files))
	for i, f := range found.Files {
		files[i] = truststore.SourceFile{RelativePath: f.RelativePath, Content: f.Content}
	}
	hooks, enabled := found.Hooks, found.Enabled
	if len(plugins) > 0 {
		hooks = append(slices.Clip(found.Hooks), plugins...)
		enabled = make([]bool, len(found.Hooks), len(hooks))
		copy(enabled, found.Enabled)
		for _, h := range plugins {
			enabled = append(enabled, h.Enabled == nil || *h.Enabled)
		}
	}
	if at.Dir == "" {
		at.Dir = found.Cwd
	}
	return truststore.NewWorkspaceAt(found.Root, at, files, hooks, enabled)
}

// pinSite is where this session's workspace hooks run, which decides the
// files their command lines name (lifecycle-hooks-and-workspace-trust
// §"按什么摘要信任"; docs/protocol.md §4 "Script pins"): the session
// directory (the hook processes' working directory and what
// ${ZCODE_PROJECT_DIR} / ${CLAUDE_PROJECT_DIR} expand to) and the PATH
// their bare command names are looked up in — every PATH of the hook
// environment (hookside's own, which finds a process hook's executable,
// and a session/open env PATH, which the shell searches), in order. A
// grant covers a declaration only at a site whose resolved pins one of its
// sets covers (truststore.PinsMatch).
func (s *Session) pinSite() pin.Site {
	at := pin.Site{Dir: s.opts.Cwd, ProjectDir: s.opts.Cwd}
	for _, kv := range s.baseEnv {
		k, v, ok := strings.Cut(kv, "=")
		if ok && (k == "PATH" || runtime.GOOS == "windows" && strings.EqualFold(k, "PATH")) {
			at.Path = append(at.Path, filepath.SplitList(v)...)
		}
	}
	return at
}
