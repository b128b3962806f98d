package runner

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"

	"github.com/hookside/hookside/internal/fsid"
	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/output"
	"github.com/hookside/hookside/runner/config"
	"github.com/hookside/hookside/truststore"
)

// scriptExts are the file extensions that make a process hook's argument a
// script argument: an interpreter given one that does not exist exits with
// its own status (python3: 2, which would block), so a missing one is found
// before the spawn.
var scriptExts = map[string]bool{
	".py": true, ".sh": true, ".bash": true, ".zsh": true, ".js": true, ".mjs": true, ".cjs": true,
	".ts": true, ".rb": true, ".pl": true, ".php": true, ".ps1": true, ".lua": true,
}

// checkProcess reports why the process hook argv cannot start as meant:
// the executable (argv[0]) is not in PATH or its path does not exist, or a
// script argument — an argument with a script extension that, resolved
// against the session directory, lies under the workspace root, the
// session directory or the user's home — does not exist. nil when neither.
// path is where a bare name was found in PATH (absolute; exec.Spec.Path,
// so that the spawn does not search PATH again), "" otherwise. With
// statExe false an executable given by its path is not looked at (the
// spawn, which finds it missing all the same, asks again: spawnProblem).
func (s *Session) checkProcess(argv []string, statExe bool) (path string, err error) {
	if len(argv) == 0 {
		return "", nil
	}
	name := argv[0]
	if strings.ContainsAny(name, `/\`) {
		p := name
		if !filepath.IsAbs(p) {
			p = filepath.Join(s.opts.Cwd, p)
		}
		if statExe {
			if _, err := os.Stat(p); errors.Is(err, fs.ErrNotExist) {
				return "", fmt.Errorf("executable %s does not exist", p)
			}
		}
	} else if lp, err := osexec.LookPath(name); err != nil && !errors.Is(err, osexec.ErrDot) {
		return "", fmt.Errorf("executable %q is not in PATH", name)
	} else if err == nil && filepath.IsAbs(lp) {
		path = lp
	}
	roots := []string{s.opts.Cwd, s.wsRoot()}
	if h, err := os.UserHomeDir(); err == nil {
		roots = append(roots, h)
	}
	for _, a := range argv[1:] {
		if codeOption(a) {
			break // the rest is code and its positional parameters
		}
		if !scriptExts[strings.ToLower(filepath.Ext(a))] || strings.HasPrefix(a, "-") {
			continue
		}
		p := a
		if !filepath.IsAbs(p) {
			p = filepath.Join(s.opts.Cwd, p)
		}
		if !underAny(p, roots) {
			continue
		}
		if _, err := os.Lstat(p); errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("script %s does not exist", p)
		}
	}
	return path, nil
}

// codeOption reports whether the argument a is an option after which the
// arguments are code, not script paths: a short-option bundle holding c
// (`-c`, `-ec`, `-lc`: sh, bash, zsh, python3 -c), `-e` / `-E` (node,
// perl, ruby), or --command / --eval / --exec. `bash -c "bash
// ./guard.sh"` names no script file: its -c argument is a shell line.
func codeOption(a string) bool {
	switch {
	case a == "--command" || a == "--eval" || a == "--exec" || strings.HasPrefix(a, "--eval=") || strings.HasPrefix(a, "--command="):
		return true
	case len(a) < 2 || a[0] != '-' || a[1] == '-':
		return false
	}
	return a == "-e" || a == "-E" || strings.ContainsRune(a[1:], 'c')
}

// processProblem is why the process hook h cannot start as meant
// (checkProcess on its command line), or why the command hook h cannot:
// the program of the `shell` it names is not in PATH (checkProcess on that
// program alone; the default shell is not looked at). nil when it can, or
// h is neither. The spawn, the CodeProcessNotFound diagnostics and `hooks
// explain` all ask this one check.
func (s *Session) processProblem(h *hook.Hook) error {
	named := h.Type == hook.TypeCommand && !h.Shell.IsZero()
	if h.Type != hook.TypeProcess && !named {
		return nil
	}
	argv, _, _, err := s.commandLine(h)
	if err != nil || len(argv) == 0 {
		return nil
	}
	if named {
		if _, err := s.checkProcess(argv[:1], true); err != nil {
			return fmt.Errorf("its shell: %w", err)
		}
		return nil
	}
	_, err = s.checkProcess(argv, true)
	return err
}

// spawnProblem is why the process hook argv failed to start with startErr
// when its executable is missing (checkProcess with the executable looked
// at), or, the executable being there, when the interpreter its "#!" line
// names is missing or cannot be run (shebangProblem, also for a start
// refused with a permission error); nil when neither is why.
func (s *Session) spawnProblem(argv []string, path string, startErr error) error {
	switch {
	case errors.Is(startErr, fs.ErrNotExist):
		if _, err := s.checkProcess(argv, true); err != nil {
			return err
		}
	case !errors.Is(startErr, fs.ErrPermission): // EACCES: also an interpreter that cannot be run
		return nil
	}
	if !shebangExec || len(argv) == 0 {
		return nil
	}
	exe := path
	if exe == "" {
		if exe = argv[0]; !filepath.IsAbs(exe) {
			exe = filepath.Join(s.opts.Cwd, exe)
		}
	}
	return shebangProblem(exe, s.opts.Cwd)
}

func (s *Session) wsRoot() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ws != nil {
		return s.ws.Root
	}
	return ""
}

func underAny(p string, roots []string) bool {
	for _, r := range roots {
		if r == "" {
			continue
		}
		if _, in := fsid.Within(r, p); in {
			return true
		}
	}
	return false
}

// processDiagnostics are the CodeProcessNotFound warnings of hooks, and
// the CodeCommandScriptNotFound warnings of command hooks whose script is
// missing (commandScriptProblem) and the CodeScriptCRLF warnings of hooks
// whose script has CRLF line endings (scriptCRLFProblem), at each
// declaration's command
// (file:line:col).
func (s *Session) processDiagnostics(hooks []hook.Hook) []hook.Diagnostic {
	var out []hook.Diagnostic
	for i := range hooks {
		h := &hooks[i]
		src := h.At
		if src == "" {
			src = h.Source.Path
		}
		if err := s.processProblem(h); err != nil {
			out = append(out, hook.Diagnostic{Code: hook.CodeProcessNotFound, Severity: hook.SeverityWarning, Source: src,
				Message: fmt.Sprintf("%s: %v; the hook fails on every run", h.Event, err)})
		} else if err := s.commandScriptProblem(h); err != nil {
			out = append(out, hook.Diagnostic{Code: hook.CodeCommandScriptNotFound, Severity: hook.SeverityWarning, Source: src,
				Message: fmt.Sprintf("%s: %v", h.Event, err)})
		} else if err := s.scriptCRLFProblem(h); err != nil {
			out = append(out, hook.Diagnostic{Code: hook.CodeScriptCRLF, Severity: hook.SeverityWarning, Source: src,
				Message: fmt.Sprintf("%s: %v", h.Event, err)})
		}
	}
	return out
}

// allHooks is hooks and the workspace declarations not among them.
func allHooks(hooks []hook.Hook, ws *truststore.Workspace) []hook.Hook {
	if ws == nil || len(ws.Declarations) == 0 {
		return hooks
	}
	seen := make(map[string]bool, len(hooks))
	for _, h := range hooks {
		seen[h.ID] = true
	}
	out := append([]hook.Hook{}, hooks...)
	for _, d := range ws.Declarations {
		if !seen[d.Hook.ID] {
			out = append(out, d.Hook)
		}
	}
	return out
}

// logLoaded logs at debug level what the session loaded from where: the
// user config, the dialect, the hooks per source file and the workspace
// root and files.
func (s *Session) logLoaded(set *config.Set) {
	if !slog.Default().Enabled(context.Background(), slog.LevelDebug) {
		return
	}
	perFile := map[string]int{}
	var files []string
	for _, h := range set.Hooks {
		key := string(h.Source.Kind) + " " + h.Source.Path
		if perFile[key] == 0 {
			files = append(files, key)
		}
		perFile[key]++
	}
	slog.Debug("session loaded", "session", s.opts.ID, "cwd", s.opts.Cwd, "profile", s.opts.Profile,
		"userConfig", s.opts.UserConfigPath, "pluginDirs", s.opts.PluginDirs, "hooks", len(set.Hooks))
	for _, f := range files {
		kind, path, _ := strings.Cut(f, " ")
		slog.Debug("hooks loaded", "source", kind, "path", path, "hooks", perFile[f])
	}
	s.mu.Lock()
	ws := s.ws
	s.mu.Unlock()
	if ws != nil {
		paths := make([]string, len(ws.Files))
		for i, f := range ws.Files {
			paths[i] = f.RelativePath
		}
		slog.Debug("workspace hooks", "feature", s.opts.Workspace.Feature, "root", ws.Root, "files", paths,
			"declarations", len(ws.Declarations), "policy", string(s.opts.Workspace.Policy))
	}
}

// trustNotice is the hooks/run TrustNotice of a PreToolUse or
// PermissionRequest whose workspace guards were refused admission as not
// (or no longer) trusted — pending_trust, stale_digest, revoked,
// blocked_untrusted — (lifecycle-hooks-and-workspace-trust §"信任状态");
// blocked_policy is the host's own setting and gets none. nil when none.
func (s *Session) trustNotice(event string, runs []output.Run) *output.TrustNotice {
	if event != hook.PreToolUse && event != hook.PermissionRequest {
		return nil
	}
	var noticed []output.NoticedHook
	for _, n := range s.SkippedWorkspaceHooks(runs) {
		switch truststore.TrustState(n.TrustState) {
		case truststore.PendingTrust, truststore.StaleDigest, truststore.Revoked, truststore.BlockedUntrusted:
			noticed = append(noticed, n)
		}
	}
	if len(noticed) == 0 {
		return nil
	}
	return &output.TrustNotice{
		Message: fmt.Sprintf("%d workspace hook(s) guarding %s did not run because they are not trusted (%s); what they check was not checked. Review them to run them again.",
			len(noticed), event, noticed[0].TrustState),
		Hooks:         noticed,
		ReviewCommand: s.ReviewCommand(),
		ReviewMethod:  "workspaceHooks/review/start",
	}
}

// SkippedWorkspaceHooks lists the workspace hooks of runs (one event's
// Merged.Runs) that admission skipped, with their declaration digest and the
// trust state and reason their run records (run.Reason is "state: reason").
// It reads nothing from disk: the states are the ones admission decided.
func (s *Session) SkippedWorkspaceHooks(runs []output.Run) []output.NoticedHook {
	var out []output.NoticedHook
	for _, r := range runs {
		if r.Source != string(hook.SourceWorkspace) || r.Outcome != output.OutcomeSkipped {
			continue
		}
		s.mu.Lock()
		d, ok := s.decls[r.HookID]
		s.mu.Unlock()
		if !ok {
			continue
		}
		state, reason, _ := strings.Cut(r.Reason, ": ")
		out = append(out, output.NoticedHook{HookID: r.HookID, Digest: d.Digest, TrustState: state, Reason: reason})
	}
	return out
}
