package config

import (
	"slices"

	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/internal/nearmiss"
)

// The key sets of the objects whose keys are fixed. A key outside its set
// is reported with hook.CodeIgnoredField at the key, naming the closest
// known key when there is one (a typo such as "matchr" would otherwise be
// dropped silently, and the group would run for every tool).
var (
	// groupKeys are a matcher group's keys in every dialect
	// (lifecycle-hooks-and-workspace-trust §"配置格式与默认值";
	// https://code.claude.com/docs/en/hooks#configuration).
	groupKeys = []string{"matcher", "parallel", "hooks"}
	// hooksKeys are the keys of a hookside file's "hooks" object; event
	// names written there are reported on their own (ParseFile).
	hooksKeys = []string{"enabled", "timeoutMs", "maxOutputBytes", "events"}
	// entryKeys are the keys of a declaration in a hookside file.
	entryKeys = []string{"type", "command", "args", "shell", "async", "timeoutMs",
		"maxOutputBytes", "enabled", "statusMessage"}
	// claudeEntryKeys are the keys of a handler in a Claude Code–shaped
	// file: hookside's own, plus every field Claude Code documents for its
	// handler types (https://code.claude.com/docs/en/hooks#hook-handler-fields:
	// common, command, http, prompt/agent and mcp_tool fields), which
	// such a file may carry whether or not this dialect runs them.
	claudeEntryKeys = []string{"type", "command", "args", "shell", "async", "timeout",
		"statusMessage", "maxOutputBytes", "enabled", "if", "once", "onFailure",
		"asyncRewake", "rewakeMessage", "rewakeSummary",
		"url", "headers", "allowedEnvVars",
		"prompt", "model", "continueOnBlock",
		"server", "tool", "input"}
)

// handlerKeys returns the declaration keys of dialect d.
func handlerKeys(d *hook.Dialect) []string {
	if d.ClaudeShaped {
		return claudeEntryKeys
	}
	return entryKeys
}

// anyDialectKey reports whether key is a declaration key of some dialect.
func anyDialectKey(key string) bool {
	return slices.Contains(entryKeys, key) || slices.Contains(claudeEntryKeys, key)
}

// refusedType reports whether declaration n names, as a string, a known
// handler type (hook.IsKnownType) that dialect d does not run.
func refusedType(d *hook.Dialect, n *jnode) bool {
	t := n.get("type")
	return t.present() && t.kind == jString && hook.IsKnownType(hook.HookType(t.str)) && !d.Runs(hook.HookType(t.str))
}

// unknownKeys reports every key of object n that is not in known, and is
// not skip(key) (nil: none skipped), as CodeIgnoredField at the key's
// position. where is the text the parser's other messages of n start with.
func (p *parser) unknownKeys(where string, n *jnode, known []string, skip func(string) bool) {
	for _, fl := range n.fields {
		if slices.Contains(known, fl.key) || (skip != nil && skip(fl.key)) {
			continue
		}
		if s := nearmiss.Suggest(fl.key, known); s != "" {
			p.report(hook.CodeIgnoredField, hook.SeverityWarning, fl.off, "%s: unknown key %q is ignored; did you mean %q?", where, fl.key, s)
			continue
		}
		p.report(hook.CodeIgnoredField, hook.SeverityWarning, fl.off, "%s: unknown key %q is ignored", where, fl.key)
	}
}
