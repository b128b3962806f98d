package v2bridge

import (
	"testing"

	"github.com/hookside/hookside/v2bridge/store"
)

// The effective binding of a hook in a context {session, agent, workspace},
// with shadowedBy computed in that context only (hooks-v2-handbook §7.1):
// a session binding of another session neither wins nor shadows.
func TestEffectiveBindingsInAContext(t *testing.T) {
	b := openBridge(t, t.TempDir(), nil)
	d := mkDef(t, b, `{"name":"s","eventName":"turn.completed","action":{"type":"sound"}}`, true)
	other := mkDef(t, b, `{"name":"o","eventName":"turn.failed","action":{"type":"sound"}}`, false)
	app, _ := b.ListBindings(bg, d.ID)
	ws, err := b.CreateBinding(bg, d.ID, store.ScopeWorkspace, "w1")
	if err != nil {
		t.Fatal(err)
	}
	ag, _ := b.CreateBinding(bg, d.ID, store.ScopeAgent, "a1")
	s2, _ := b.CreateBinding(bg, d.ID, store.ScopeSession, "s2")
	off := false
	if _, err := b.UpdateBinding(bg, ag.ID, &off, nil); err != nil {
		t.Fatal(err)
	}
	// Globally, the application binding is shadowed by all three.
	if all, _ := b.ListBindings(bg, d.ID); len(all[0].ShadowedBy) != 3 {
		t.Fatalf("%s", dump(all))
	}
	res, err := b.EffectiveBindings(bg, EffectiveParams{SessionID: "s1", WorkspaceID: "w1"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hooks) != 2 {
		t.Fatalf("%s", dump(res))
	}
	h := res.Hooks[0] // turn.completed sorts first
	if h.HookID != d.ID || h.Effective == nil || h.Effective.ID != ws.ID || len(h.Effective.ShadowedBy) != 0 || !h.Executes {
		t.Fatalf("context s1/w1: %s", dump(h))
	}
	if len(h.Shadowed) != 1 || h.Shadowed[0].ID != app[0].ID || len(h.Shadowed[0].ShadowedBy) != 1 || h.Shadowed[0].ShadowedBy[0] != ws.ID {
		t.Fatalf("context s1/w1 shadowed: %s", dump(h.Shadowed))
	}
	if o := res.Hooks[1]; o.HookID != other.ID || o.Effective != nil || o.Executes {
		t.Fatalf("unbound hook: %s", dump(o))
	}
	// Agent a1 wins over the workspace, and it is disabled: the hook does
	// not execute in that context (§7.2).
	res, _ = b.EffectiveBindings(bg, EffectiveParams{SessionID: "s1", AgentID: "a1", WorkspaceID: "w1", HookID: d.ID})
	if h := res.Hooks[0]; h.Effective.ID != ag.ID || h.Executes || len(h.Shadowed) != 2 {
		t.Fatalf("context s1/a1/w1: %s", dump(h))
	}
	// Session s2: its session binding wins.
	res, _ = b.EffectiveBindings(bg, EffectiveParams{SessionID: "s2", EventName: "turn.completed"})
	if h := res.Hooks[0]; len(res.Hooks) != 1 || h.Effective.ID != s2.ID || !h.Executes || len(h.Shadowed) != 1 {
		t.Fatalf("context s2: %s", dump(res))
	}
	if _, err := b.EffectiveBindings(bg, EffectiveParams{EventName: "turn.exploded"}); err == nil {
		t.Fatal("unknown event accepted")
	}
}
