package config

import (
	"strings"
	"testing"

	"github.com/hookside/hookside/internal/hook"
)

// FuzzParseFile checks that neither parser panics and that whatever loads
// satisfies the invariants the runner relies on. Seed corpus:
// testdata/fuzz/FuzzParseFile/.
func FuzzParseFile(f *testing.F) {
	f.Add([]byte(userOn))
	f.Add([]byte(pluginHooks))
	f.Add([]byte("\ufeff{\"hooks\": {\"enabled\": true}}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		const path = "/fuzz/config.json"
		file, diags := ParseFile(path, data, hook.SourceWorkspace)
		if file == nil {
			t.Fatal("nil file")
		}
		check(t, path, file.Hooks, diags)
		if len(file.Resolve(hook.Limits{TimeoutMs: 5})) != len(file.Hooks) {
			t.Fatal("Resolve changed the count")
		}
		pp := parsePlugin(hook.Plugin, "/fuzz", "/fuzz/hooks/hooks.json", data, "/fuzz/.claude-plugin/plugin.json", data)
		check(t, "/fuzz/", resolveHooks(pp.hooks, pp.own, hook.Limits{}.Or(hook.Limits{})), pp.diags)
	})
}

func check(t *testing.T, path string, hooks []hook.Hook, diags []hook.Diagnostic) {
	t.Helper()
	seen := map[string]bool{}
	for _, h := range hooks {
		if !hook.IsEvent(h.Event) || h.TimeoutMs <= 0 || h.MaxOutputBytes <= 0 || strings.TrimSpace(h.Command) == "" ||
			(h.Type != hook.TypeProcess && h.Type != hook.TypeCommand) || seen[h.ID] || strings.Contains(h.Command, skillDirRef) {
			t.Fatalf("bad hook %+v", h)
		}
		seen[h.ID] = true
	}
	for _, d := range diags {
		if !strings.HasPrefix(d.Source, path) || d.Code == "" || d.Message == "" {
			t.Fatalf("bad diagnostic %+v", d)
		}
	}
}
