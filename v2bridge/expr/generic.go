package expr

import (
	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/internal/jsonexact"
)

// generic is implemented by this package's wire types: it returns the same
// decoded-JSON form encoding/json would produce, without the marshal round
// trip, so StableStringify and ExecutionHash stay cheap (§8.1).
type generic interface{ generic() any }

func (v *Value) generic() any {
	m := make(map[string]any, 1)
	if v.HasConst {
		m["const"] = v.Const
	}
	if v.Path != nil {
		m["path"] = *v.Path
	}
	if v.Template != nil {
		m["template"] = *v.Template
	}
	return m
}

func (c *Condition) generic() any {
	m := map[string]any{"op": c.Op}
	if c.Left != nil {
		m["left"] = c.Left.generic()
	}
	if c.Right != nil {
		m["right"] = c.Right.generic()
	}
	if c.Conditions != nil {
		list := make([]any, len(c.Conditions))
		for i, child := range c.Conditions {
			if child != nil {
				list[i] = child.generic()
			}
		}
		m["conditions"] = list
	}
	if c.Condition != nil {
		m["condition"] = c.Condition.generic()
	}
	return m
}

func (a *Action) generic() any {
	m := map[string]any{"type": a.Type}
	if a.Title != nil {
		m["title"] = a.Title.generic()
	}
	if a.Body != nil {
		m["body"] = a.Body.generic()
	}
	if t := a.Target; t != nil {
		target := map[string]any{"sourceKind": t.SourceKind, "sourceId": t.SourceID}
		for k, v := range map[string]string{"version": t.Version, "toolName": t.ToolName, "qualifiedName": t.QualifiedName} {
			if v != "" {
				target[k] = v
			}
		}
		m["target"] = target
	}
	if h := a.Hook; h != nil {
		hm := map[string]any{"type": h.Type, "command": h.Command}
		if len(h.Args) > 0 {
			args := make([]any, len(h.Args))
			for i, s := range h.Args {
				args[i] = s
			}
			hm["args"] = args
		}
		// The value as written: true, a string, false or (refused by
		// Validate) another JSON value; absent when unset.
		switch {
		case h.shellRaw != nil:
			var v any
			_ = jsonexact.Unmarshal(h.shellRaw, &v)
			hm["shell"] = v
		case h.Shell.Kind() == hook.ShellTrue:
			hm["shell"] = true
		case h.Shell.Kind() == hook.ShellString:
			hm["shell"] = h.Shell.Program()
		}
		m["hook"] = hm
	}
	return m
}

func (r *RetryPolicy) generic() any {
	m := make(map[string]any, 3)
	if r.Mode != "" {
		m["mode"] = r.Mode
	}
	if r.MaxAttempts != nil {
		m["maxAttempts"] = *r.MaxAttempts
	}
	if r.BackoffMs != nil {
		m["backoffMs"] = *r.BackoffMs
	}
	return m
}
