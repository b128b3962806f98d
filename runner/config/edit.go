package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/hookside/hookside/internal/fsid"
	"github.com/hookside/hookside/internal/hook"
	"github.com/natefinch/atomic"
)

// ErrDeclarationMoved is returned by setHookEnabled when the file no longer
// holds a hook object at the given position.
var ErrDeclarationMoved = errors.New("the declaration is no longer at that position")

// setHookEnabled returns data with the hook at event/matcherIndex/hookIndex
// — hooks.events[event][matcherIndex].hooks[hookIndex] in a hookside file,
// hooks.<event>[matcherIndex].hooks[hookIndex] in a Claude Code–shaped one
// (claudeShape) — having "enabled" set to enabled, leaving every other byte
// of the file as it was (formatting, key order, other keys). It replaces an
// existing "enabled" value in place or inserts "enabled" as the hook
// object's first key, spaced as the object spaces its keys (the first key's
// colon, afterComma): on a line of its own with the first key's indentation
// when that key starts a line, `"enabled":false,` in a compact object. It is
// the write half of the review flow's disable_selected
// (lifecycle-hooks-and-workspace-trust §"信任存在哪、怎样审查": 关闭某条声明会把
// enabled: false 写回). Errors: a syntax error in data, or
// ErrDeclarationMoved.
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
	if len(h.fields) == 0 {
		out = append(out, data[:h.off+1]...)
		out = append(out, `"enabled": `+lit...)
		return append(out, data[h.off+1:]...), nil
	}
	// The new key goes before the first one, written as the object writes
	// its keys: the first key's colon spacing, then what follows a comma
	// between two keys of this object.
	first := h.fields[0]
	colon := data[first.kend:first.val.off]
	out = append(out, data[:first.off]...)
	out = append(out, `"enabled"`...)
	out = append(out, colon...)
	out = append(out, lit+","...)
	out = append(out, afterComma(data, h)...)
	return append(out, data[first.off:]...), nil
}

// afterComma is the whitespace the object h (with at least one key) puts
// after a comma between two keys: the run before its second key; with one
// key, the run before that key when it starts a line (its line break and
// indentation), else one space when the object spaces its braces or its
// colon, else nothing (a compact object).
func afterComma(data []byte, h *jnode) []byte {
	first := h.fields[0]
	if len(h.fields) > 1 {
		next := h.fields[1].off
		return data[len(bytes.TrimRight(data[:next], " \t\r\n")):next]
	}
	lead := data[h.off+1 : first.off]
	if bytes.ContainsAny(lead, "\r\n") {
		return lead
	}
	colon := data[first.kend:first.val.off]
	if len(lead) > 0 || len(colon) > 1 {
		return []byte(" ")
	}
	return nil
}

// ErrNotReviewed is returned by Disable when the declaring file no longer
// holds the declaration as it was reviewed.
var ErrNotReviewed = errors.New("the declaring file changed since the review")

// Disable writes `"enabled": false` into the file that declares h, after
// checking that the file still holds that declaration as reviewed: the
// declaration now at h's position, with h's workspace-relative path and
// discovery order, must satisfy reviewed (the caller compares digests).
// The rest of the file is preserved byte for byte and its mode kept
// (lifecycle-hooks-and-workspace-trust §"信任存在哪、怎样审查":
// 写之前先核对磁盘上的声明与审查时一致). The file is parsed with h's
// dialect; userLimits resolves a zcode file's limits. Errors:
// ErrNotReviewed, ErrDeclarationMoved, a plugin's hooks.json (refused), a
// symlink or non-regular file, I/O errors.
func Disable(h hook.Hook, userLimits hook.Limits, reviewed func(current hook.Hook) bool) error {
	path := h.Source.Path
	if h.Source.PluginRoot != "" {
		return fmt.Errorf("%s: a workspace plugin's hooks.json cannot be disabled per declaration; remove the plugin from plugins.dirs", path)
	}
	fi, err := os.Lstat(path)
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return &fsid.NotRegularError{Path: path, Mode: fi.Mode()}
	}
	f, err := fsid.OpenNoFollow(path)
	if err != nil {
		return err
	}
	data, err := io.ReadAll(io.LimitReader(f, hook.MaxConfigFileBytes+1))
	f.Close()
	if err != nil {
		return err
	}
	claudeShaped := h.Source.Dialect != nil && h.Source.Dialect.ClaudeShaped
	var current []hook.Hook
	if claudeShaped {
		f, _ := ParseSettingsFile(h.Source.Dialect, path, data, hook.SourceWorkspace)
		current = f.Hooks
	} else {
		f, _ := ParseFile(path, data, hook.SourceWorkspace)
		current = f.Resolve(userLimits)
	}
	found := false
	for _, cur := range current {
		if cur.Event == h.Event && cur.MatcherIndex == h.MatcherIndex && cur.HookIndex == h.HookIndex {
			cur.Source.RelativePath, cur.Source.DiscoveryOrder = h.Source.RelativePath, h.Source.DiscoveryOrder
			found = reviewed(cur)
			break
		}
	}
	if !found {
		return fmt.Errorf("%s: %w", path, ErrNotReviewed)
	}
	out, err := setHookEnabled(data, claudeShaped, h.Event, h.MatcherIndex, h.HookIndex, false)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := atomic.WriteFile(path, strings.NewReader(string(out))); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return os.Chmod(path, fi.Mode().Perm())
}
