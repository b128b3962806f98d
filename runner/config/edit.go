package config

import (
	"errors"
	"fmt"
)

// ErrDeclarationMoved is returned by SetHookEnabled when the file no longer
// holds a hook object at the given position.
var ErrDeclarationMoved = errors.New("the declaration is no longer at that position")

// SetHookEnabled returns data with hooks.events[event][matcherIndex].hooks[hookIndex].enabled
// set to enabled, leaving every other byte of the file as it was (formatting,
// key order, other keys). It replaces an existing "enabled" value in place or
// inserts `"enabled": <v>, ` right after the hook object's opening brace.
// It is the write half of the review flow's disable_selected
// (lifecycle-hooks-and-workspace-trust §"信任存在哪、怎样审查":
// 关闭某条声明会把 enabled: false 写回). Errors: a syntax error in data, or
// ErrDeclarationMoved.
func SetHookEnabled(data []byte, event string, matcherIndex, hookIndex int, enabled bool) ([]byte, error) {
	return setHookEnabled(data, false, event, matcherIndex, hookIndex, enabled)
}

// SetSparkHookEnabled is SetHookEnabled for a Claude Code–shaped settings
// file (events directly under "hooks": hooks.<event>[matcherIndex].hooks[hookIndex]).
func SetSparkHookEnabled(data []byte, event string, matcherIndex, hookIndex int, enabled bool) ([]byte, error) {
	return setHookEnabled(data, true, event, matcherIndex, hookIndex, enabled)
}

func setHookEnabled(data []byte, claudeShape bool, event string, matcherIndex, hookIndex int, enabled bool) ([]byte, error) {
	root, err := parseTree(data)
	if err != nil {
		return nil, fmt.Errorf("parse: %w", err)
	}
	events := root.get("hooks")
	if !claudeShape {
		events = events.get("events")
	}
	groups := events.get(event)
	if groups == nil || groups.kind != jArray || matcherIndex < 0 || matcherIndex >= len(groups.elems) {
		return nil, ErrDeclarationMoved
	}
	hooks := groups.elems[matcherIndex].get("hooks")
	if hooks == nil || hooks.kind != jArray || hookIndex < 0 || hookIndex >= len(hooks.elems) {
		return nil, ErrDeclarationMoved
	}
	h := hooks.elems[hookIndex]
	if h.kind != jObject {
		return nil, ErrDeclarationMoved
	}
	lit := "false"
	if enabled {
		lit = "true"
	}
	out := make([]byte, 0, len(data)+20)
	for _, f := range h.fields {
		if f.key != "enabled" {
			continue
		}
		v := f.val
		var n int
		switch v.kind {
		case jBool:
			n = 4
			if !v.b {
				n = 5
			}
		case jNull:
			n = 4
		default:
			return nil, fmt.Errorf("hook %s[%d][%d]: enabled is a %s, not a boolean", event, matcherIndex, hookIndex, v.kind)
		}
		out = append(out, data[:v.off]...)
		out = append(out, lit...)
		return append(out, data[v.off+n:]...), nil
	}
	ins := `"enabled": ` + lit
	if len(h.fields) > 0 {
		ins += ", "
	}
	out = append(out, data[:h.off+1]...)
	out = append(out, ins...)
	return append(out, data[h.off+1:]...), nil
}
