package v2bridge

import (
	"context"
	"fmt"
	"sort"

	"github.com/hookside/hookside/v2bridge/expr"
	"github.com/hookside/hookside/v2bridge/store"
)

// LegacyConfig is the classic ("经典通知", V1) notification configuration
// (hooks-v2-handbook §13): four nodes, each with a notification and a sound
// switch. Enabled is the application-level switch: absent = on.
type LegacyConfig struct {
	Enabled *bool                 `json:"enabled,omitempty"`
	Nodes   map[string]LegacyNode `json:"nodes"`
}

// LegacyNode holds the two switches of one node.
type LegacyNode struct {
	Notification bool `json:"notification"`
	Sound        bool `json:"sound"`
}

// LegacyAgentConfig is one agent's classic configuration; it migrates only
// when Enabled is explicitly true (§13: the two defaults differ).
type LegacyAgentConfig struct {
	AgentID string                `json:"agentId"`
	Enabled *bool                 `json:"enabled,omitempty"`
	Nodes   map[string]LegacyNode `json:"nodes"`
}

// MigrateParams are the v2/legacy/migrate params.
type MigrateParams struct {
	Config       *LegacyConfig       `json:"config"`
	AgentConfigs []LegacyAgentConfig `json:"agentConfigs,omitempty"`
}

// MigrateResult is {definitionsCreated, bindingsCreated, migrated}.
type MigrateResult struct {
	DefinitionsCreated int  `json:"definitionsCreated"`
	BindingsCreated    int  `json:"bindingsCreated"`
	Migrated           bool `json:"migrated"`
}

// legacyNodes maps the classic nodes to events (§13). session_fail splits
// into two events; permission_request is deliberately not migrated.
var legacyNodes = []struct {
	node   string
	events []string
}{
	{"ask_user_question", []string{expr.EventQuestionRequested}},
	{"session_end", []string{expr.EventTurnCompleted}},
	{"session_fail", []string{expr.EventTurnFailed, expr.EventTurnCancelled}},
}

// LegacyNodeNames are the nodes a legacy config may hold.
var LegacyNodeNames = []string{"ask_user_question", "session_end", "session_fail", "permission_request"}

// legacyID is the deterministic definition id: builtin-legacy-<node>-<action>,
// with the event's last segment inserted for a node that splits into several
// events (builtin-legacy-session_fail-failed-sound, …-cancelled-sound).
func legacyID(node, event, action string, split bool) string {
	if !split {
		return fmt.Sprintf("builtin-legacy-%s-%s", node, action)
	}
	suffix := event[len("turn."):]
	return fmt.Sprintf("builtin-legacy-%s-%s-%s", node, suffix, action)
}

// Migrate converts the classic configuration into built-in definitions with
// authorized application bindings, plus agent-scope bindings (disabled when
// the node is off) for agent configs, in ONE transaction, idempotently
// (§13). The legacy configuration itself is not touched. Only a legacy
// configuration that exists (has nodes) and is enabled migrates and writes
// the ownership marker (§13, §15); a disabled or empty one changes nothing
// and answers the marker's current state.
func (b *Bridge) Migrate(ctx context.Context, p MigrateParams) (MigrateResult, error) {
	if p.Config == nil {
		return MigrateResult{}, invalid("config", "required")
	}
	for _, cfg := range append([]map[string]LegacyNode{p.Config.Nodes}, agentNodes(p.AgentConfigs)...) {
		for n := range cfg {
			if !contains(LegacyNodeNames, n) {
				return MigrateResult{}, invalid("config.nodes", "unknown node %q (want %v)", n, LegacyNodeNames)
			}
		}
	}
	appOn := p.Config.Enabled == nil || *p.Config.Enabled
	if !appOn || len(p.Config.Nodes) == 0 {
		// §15 (经典通知区块显示「未迁移」): only a legacy configuration that
		// exists and is enabled migrates and marks ownership; otherwise the
		// classic path stays in charge and nothing is written.
		_, migrated, err := b.db.GetKV(ctx, store.OwnershipKey)
		if err != nil {
			return MigrateResult{}, storeErr(err, "")
		}
		return MigrateResult{Migrated: migrated}, nil
	}
	var im store.LegacyImport
	existing := map[string]bool{}
	if ds, err := b.db.ListDefinitions(ctx, ""); err == nil {
		for _, d := range ds {
			existing[d.ID] = true
		}
	} else {
		return MigrateResult{}, storeErr(err, "")
	}
	for _, ln := range legacyNodes {
		node, on := p.Config.Nodes[ln.node]
		for _, action := range []string{expr.ActionNotification, expr.ActionSound} {
			enabled := on && ((action == expr.ActionNotification && node.Notification) || (action == expr.ActionSound && node.Sound))
			for _, ev := range ln.events {
				id := legacyID(ln.node, ev, action, len(ln.events) > 1)
				if enabled {
					d := &expr.Definition{ID: id, Name: fmt.Sprintf("经典通知 %s · %s (%s)", ln.node, action, ev), EventName: ev,
						Action: expr.Action{Type: action}}
					d.ApplyDefaults()
					sd, err := toStore(d)
					if err != nil {
						return MigrateResult{}, err
					}
					im.Definitions = append(im.Definitions, sd)
					im.Bindings = append(im.Bindings, store.LegacyBinding{HookID: id, ScopeKind: store.ScopeApplication, Enabled: true})
					existing[id] = true
				}
			}
		}
	}
	// Agent configs create no definitions, only agent bindings for
	// definitions that exist; a node that is off gives a disabled binding.
	for _, ac := range p.AgentConfigs {
		if ac.AgentID == "" || ac.Enabled == nil || !*ac.Enabled {
			continue
		}
		for _, ln := range legacyNodes {
			node, present := ac.Nodes[ln.node]
			if !present {
				continue
			}
			for _, action := range []string{expr.ActionNotification, expr.ActionSound} {
				on := (action == expr.ActionNotification && node.Notification) || (action == expr.ActionSound && node.Sound)
				for _, ev := range ln.events {
					id := legacyID(ln.node, ev, action, len(ln.events) > 1)
					if existing[id] {
						im.Bindings = append(im.Bindings, store.LegacyBinding{HookID: id, ScopeKind: store.ScopeAgent, ScopeID: ac.AgentID, Enabled: on})
					}
				}
			}
		}
	}
	im.Ownership = "v2"
	res, err := b.db.ApplyLegacyImport(ctx, im)
	if err != nil {
		return MigrateResult{}, storeErr(err, "config")
	}
	_, migrated, err := b.db.GetKV(ctx, store.OwnershipKey)
	if err != nil {
		return MigrateResult{}, storeErr(err, "")
	}
	return MigrateResult{DefinitionsCreated: res.DefinitionsCreated, BindingsCreated: res.BindingsCreated, Migrated: migrated}, nil
}

func agentNodes(acs []LegacyAgentConfig) []map[string]LegacyNode {
	out := make([]map[string]LegacyNode, 0, len(acs))
	for _, a := range acs {
		out = append(out, a.Nodes)
	}
	return out
}

// sortedKeys is used by tests and the CLI for stable output.
func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
