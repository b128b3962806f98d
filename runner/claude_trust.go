package runner

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/hookside/hookside/internal/fsid"
	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/truststore"
	"github.com/hookside/hookside/truststore/pin"
)

// pluginWatchPaths lists, for the admission watch, the files of the
// workspace declarations whose pins are relative to a plugin directory
// outside the workspace root (truststore.PinRoot): the declaring file and
// the scripts a grant would pin.
func pluginWatchPaths(w *truststore.Workspace) []string {
	var out []string
	for _, d := range w.Declarations {
		root := truststore.PinRoot(d.Hook, w.Root)
		if root == w.Root {
			continue
		}
		out = append(out, d.Hook.Source.Path)
		for _, rel := range pin.ScriptPaths(d.Hook, root) {
			out = append(out, filepath.Join(root, filepath.FromSlash(rel)))
		}
	}
	return out
}

// disabledByWorkspace is the CodeClaudeHooksDisabledByWorkspace warning
// for the workspace settings file path: Claude Code honours a project's
// disableAllHooks, so the user's hooks (guards included) do not run while
// that file says so.
func disabledByWorkspace(path string) hook.Diagnostic {
	return hook.Diagnostic{Code: hook.CodeClaudeHooksDisabledByWorkspace, Severity: hook.SeverityWarning, Source: path,
		Message: "disableAllHooks: true in this workspace settings file switches off every user and plugin hook (guards included) in this workspace; only managed hooks run"}
}

// CodeClaudeSettingType: a hooks switch of a Claude settings file
// (disableAllHooks, allowManagedHooksOnly, allowedHttpHookUrls,
// httpHookAllowedEnvVars) has the wrong JSON type; the file's switches
// are ignored (severity error; the source is file:line:col of the value).
const CodeClaudeSettingType = "claude_setting_type"

// claudeSwitchDiagnostics reports a wrongly typed switch in each of the
// settings files paths (absent or unreadable files say nothing).
func claudeSwitchDiagnostics(paths ...string) []hook.Diagnostic {
	var out []hook.Diagnostic
	for _, p := range paths {
		if p == "" {
			continue
		}
		data, err := fsid.ReadFile(p, hook.MaxConfigFileBytes)
		if err != nil {
			continue
		}
		var k settingsKeys
		var te *json.UnmarshalTypeError
		if !errors.As(json.Unmarshal(data, &k), &te) {
			continue
		}
		off := int(te.Offset)
		if i := bytes.LastIndex(data[:min(off, len(data))], []byte(`"`+te.Field+`"`)); i >= 0 {
			off = i
		}
		line, col := 1+bytes.Count(data[:off], []byte("\n")), off-bytes.LastIndexByte(data[:off], '\n')
		out = append(out, hook.Diagnostic{Code: CodeClaudeSettingType, Severity: hook.SeverityError,
			Source:  fmt.Sprintf("%s:%d:%d", p, line, col),
			Message: fmt.Sprintf("%s must be %s, got %s; this file's hook switches are ignored", te.Field, te.Type, te.Value)})
	}
	return out
}
