package v2bridge

import (
	"testing"

	"github.com/hookside/hookside/v2bridge/store"
)

// A legacy configuration that is switched off does not migrate: no
// definitions, no ownership marker, so the classic path keeps firing
// (hooks-v2-handbook §15 "只有当存在旧配置且启用时才会迁移并标记").
func TestMigrateDisabledLegacyConfigDoesNotMarkOwnership(t *testing.T) {
	b := openBridge(t, t.TempDir(), nil)
	off := false
	yes := true
	res, err := b.Migrate(bg, MigrateParams{Config: &LegacyConfig{Enabled: &off, Nodes: map[string]LegacyNode{
		"session_end": {Notification: true, Sound: true}}},
		AgentConfigs: []LegacyAgentConfig{{AgentID: "a1", Enabled: &yes, Nodes: map[string]LegacyNode{"session_end": {Notification: true}}}}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Migrated || res.DefinitionsCreated != 0 || res.BindingsCreated != 0 {
		t.Fatalf("disabled legacy config migrated: %+v", res)
	}
	if _, ok, _ := b.DB().GetKV(bg, store.OwnershipKey); ok {
		t.Fatal("ownership marker written for a disabled legacy config")
	}
	// Agent configs alone (no application config nodes) do not migrate either.
	res, err = b.Migrate(bg, MigrateParams{Config: &LegacyConfig{},
		AgentConfigs: []LegacyAgentConfig{{AgentID: "a1", Enabled: &yes, Nodes: map[string]LegacyNode{"session_end": {Notification: true}}}}})
	if err != nil || res.Migrated {
		t.Fatalf("%+v %v", res, err)
	}
	// Enabled: migrates and marks.
	res, err = b.Migrate(bg, MigrateParams{Config: &LegacyConfig{Enabled: &yes, Nodes: map[string]LegacyNode{"session_end": {Sound: true}}}})
	if err != nil || !res.Migrated || res.DefinitionsCreated != 1 || res.BindingsCreated != 1 {
		t.Fatalf("%+v %v", res, err)
	}
}
