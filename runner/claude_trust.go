package runner

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"

	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/internal/jsonpos"
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

// settingTypeDiagnostic is the CodeClaudeSettingType error for te, the
// type error decoding the switches of the settings file p (content data),
// at file:line:col of the offending key.
func settingTypeDiagnostic(p string, data []byte, te *json.UnmarshalTypeError) hook.Diagnostic {
	off := int(te.Offset)
	if i := bytes.LastIndex(data[:min(off, len(data))], []byte(`"`+te.Field+`"`)); i >= 0 {
		off = i
	}
	return hook.Diagnostic{Code: CodeClaudeSettingType, Severity: hook.SeverityError,
		Source:  jsonpos.At(p, data, off),
		Message: fmt.Sprintf("%s must be %s, got %s; this file's hook switches are ignored", te.Field, te.Type, te.Value)}
}
