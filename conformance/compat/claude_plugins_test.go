package compat

import (
	"strings"
	"testing"
)

// installedPluginFiles lays out a Claude Code home with installed plugins
// the way `claude plugin install` leaves it: plugins/installed_plugins.json
// (format version 2) pointing at plugins/cache/<marketplace>/<plugin>/<version>/
// (https://code.claude.com/docs/en/plugin-marketplaces#pre-populate-plugins-for-containers).
func installedPluginFiles(plugins map[string]map[string]any) map[string]any {
	files := map[string]any{}
	entries := map[string]any{}
	for id, p := range plugins {
		name, market, _ := strings.Cut(id, "@")
		dir := "claudehome/plugins/cache/" + market + "/" + name + "/1.0.0"
		entry := obj("scope", "user", "installPath", "${ROOT}/"+dir, "version", "1.0.0",
			"installedAt", "2026-01-01T00:00:00.000Z", "lastUpdated", "2026-01-01T00:00:00.000Z", "gitCommitSha", "0123abcd")
		if pp, ok := p["projectPath"]; ok {
			entry["scope"], entry["projectPath"] = "project", pp
		}
		entries[id] = []any{entry}
		manifest := obj("name", name, "version", "1.0.0")
		for k, v := range p {
			if k != "hooks" && k != "projectPath" {
				manifest[k] = v
			}
		}
		files[dir+"/.claude-plugin/plugin.json"] = manifest
		if h, ok := p["hooks"]; ok {
			files[dir+"/hooks/hooks.json"] = obj("hooks", h)
		}
	}
	files["claudehome/plugins/installed_plugins.json"] = obj("version", 2, "plugins", entries)
	return files
}

func pluginCorpus() []claudeScenario {
	say := func(text string) map[string]any {
		return obj("SessionStart", claudeGroup("", obj("type", "command", "command", "echo "+text)))
	}
	files := installedPluginFiles(map[string]map[string]any{
		"fmt@market": {
			"userConfig": obj(
				"api_url", obj("type", "string", "title", "API", "description", "endpoint"),
				"api_token", obj("type", "string", "title", "Token", "description", "token", "sensitive", true),
				"level", obj("type", "number", "title", "Level", "description", "level", "default", 2)),
			"hooks": obj("SessionStart", claudeGroup("",
				obj("type", "command", "command", "${ROOT}/bin/plugin_options.sh", "args", []any{"${user_config.api_url}"}),
				obj("type", "command", "command", "echo ${user_config.api_url}"))),
		},
		"off@market":   {"hooks": say("off-plugin-ran")},
		"lint@market":  {"defaultEnabled": false, "hooks": say("lint-plugin-ran")},
		"proj@market":  {"projectPath": "${WS}", "hooks": say("proj-plugin-ran")},
		"other@market": {"projectPath": "${ROOT}/elsewhere", "hooks": say("other-plugin-ran")},
	})
	return []claudeScenario{{
		name: "installed_plugins_enabled_and_options", description: "installed plugins load from installed_plugins.json: enabledPlugins false and defaultEnabled false keep a plugin's hooks off, a project-scope install loads only in its project, and there as a workspace plugin whose hooks wait for trust like .claude/settings.json hooks (hookside's deliberate difference; here the host did not switch workspace hooks on); pluginConfigs options reach an exec-form hook as ${user_config.KEY} arguments and every hook as CLAUDE_PLUGIN_OPTION_<KEY> (manifest defaults fill the gaps); a shell-form command referencing ${user_config.*} fails instead of running (settings-reference#enabledplugins, plugins-reference#user-configuration, errors#plugin-command-references-user-config).",
		scripts: []string{"plugin_options.sh"}, event: "SessionStart", files: files,
		settings: obj(
			"enabledPlugins", obj("fmt@market", true, "off@market", false, "ghost@market", true),
			"pluginConfigs", obj("fmt@market", obj("options", obj("api_url", "https://api.example.com/v1?a=$(id)", "api_token", "tok")))),
		expectOpen: obj("diagnostics", obj("$contains", []any{
			obj("code", "claude_plugin_disabled", "message", obj("$regex", "off@market")),
			obj("code", "claude_plugin_disabled", "message", obj("$regex", "lint@market")),
			obj("code", "claude_plugin_not_installed", "message", obj("$regex", "ghost@market"))})),
		runs: []runExpect{{obj("source", "startup"), obj(
			"additionalContext", []any{"endpoint=https://api.example.com/v1?a=$(id) token=tok level=2 data=fmt-market"},
			"hookErrors", []any{obj("$regex", `fmt@market references \$\{user_config\.\*\} in a shell-form command`)},
			"runs", []any{obj("source", "workspace", "outcome", "skipped", "reason", obj("$regex", "workspace_hooks_feature_disabled"), "hookId", obj("$regex", "/proj/1.0.0/hooks/hooks.json#")),
				obj("source", "plugin", "outcome", "succeeded"), obj("source", "plugin", "outcome", "failed")})}},
		after: []any{obj("expectGlob", obj("pattern", "${ROOT}/claudehome/plugins/data/*", "count", 1)), obj("expectGlob", obj("pattern", "${ROOT}/claudehome/plugins/data/fmt-market", "count", 1))},
	}}
}

// TestClaudeInstalledPlugins runs the installed-plugin scenarios against
// the real binary.
func TestClaudeInstalledPlugins(t *testing.T) {
	runClaudeScenarios(t, pluginCorpus(), false)
}
