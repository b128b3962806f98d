package main

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestHooksListCannotRun: hooks list whose only hook is dropped (a prompt
// handler the zcode profile cannot run) says how many configured hooks
// cannot run and why, not "no hooks configured"; --event of another event
// still says none is configured.
func TestHooksListCannotRun(t *testing.T) {
	e := newCLIEnv(t)
	e.userConfig(t, oneHook("Stop", map[string]any{"type": "prompt", "prompt": "are we done?"}))
	code, out, errs := e.hookside(t, "", "hooks", "list")
	for _, want := range []string{"no hooks run: 1 configured hook(s) cannot run\n", "  Stop ", "config.json:", "[0][0]  invalid — hook type \"prompt\"", "hookside hooks explain --event Stop"} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
	if code != exitOK || strings.Contains(out, "no hooks configured") || !strings.Contains(errs, "[config_invalid_hook]") {
		t.Errorf("exit %d, stdout %q, stderr %q; want exit 0, the diagnostic on stderr", code, out, errs)
	}
	if code, out, _ := e.hookside(t, "", "hooks", "list", "--event", "PreToolUse"); code != exitOK || out != "no hooks configured\n" {
		t.Errorf("--event PreToolUse: exit %d, stdout %q; want no hooks configured", code, out)
	}
	if code, out, _ := e.hookside(t, "", "hooks", "list", "--event", "Stop"); code != exitOK || !strings.Contains(out, "1 configured hook(s) cannot run") || !strings.Contains(out, "explain --event Stop") {
		t.Errorf("--event Stop: exit %d, stdout %q", code, out)
	}
}

// TestHooksListCannotRunBesideRunnable: when some configured hooks load
// and others cannot run, hooks list lists the ones that load, then says
// how many more cannot run, one a line with why, and the explain to run;
// --json lists them in cannotRun ({event, source, matcherIndex, hookIndex,
// type, command, reason, detail}), [] when none.
func TestHooksListCannotRunBesideRunnable(t *testing.T) {
	e := newCLIEnv(t)
	e.userConfig(t, map[string]any{
		"PreToolUse": []any{map[string]any{"matcher": "Bash", "hooks": []any{map[string]any{"type": "command", "command": "true"}}}},
		"Stop":       []any{map[string]any{"hooks": []any{map[string]any{"type": "prompt", "prompt": "are we done?"}}}},
	})
	code, out, _ := e.hookside(t, "", "hooks", "list")
	lines := strings.Split(out, "\n")
	if code != exitOK || len(lines) < 4 || !strings.HasPrefix(lines[0], "PreToolUse ") ||
		lines[1] != "1 more configured hook(s) cannot run and are not listed:" ||
		!strings.Contains(lines[2], "  Stop ") || !strings.Contains(lines[2], "[0][0]  invalid — hook type \"prompt\"") ||
		!strings.Contains(lines[3], "hookside hooks explain --event Stop") || strings.Contains(out, "no hooks run") {
		t.Errorf("exit %d, stdout:\n%s", code, out)
	}
	code, out, _ = e.hookside(t, "", "hooks", "list", "--json")
	var got struct {
		Hooks     []map[string]any `json:"hooks"`
		CannotRun []struct {
			Event  string `json:"event"`
			Source struct {
				Kind, Path, At string
			} `json:"source"`
			MatcherIndex int    `json:"matcherIndex"`
			HookIndex    int    `json:"hookIndex"`
			Type         string `json:"type"`
			Reason       string `json:"reason"`
			Detail       string `json:"detail"`
		} `json:"cannotRun"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || code != exitOK {
		t.Fatalf("exit %d, %v: %s", code, err, out)
	}
	if len(got.Hooks) != 1 || len(got.CannotRun) != 1 {
		t.Fatalf("hooks %d, cannotRun %d: %s", len(got.Hooks), len(got.CannotRun), out)
	}
	c := got.CannotRun[0]
	if c.Event != "Stop" || c.Source.Kind != "user" || !strings.Contains(c.Source.At, "config.json:") || c.Reason != "invalid" ||
		!strings.Contains(c.Detail, `hook type "prompt"`) || c.MatcherIndex != 0 || c.HookIndex != 0 {
		t.Errorf("cannotRun[0] = %+v", c)
	}
	// --event of the runnable event: nothing else is named.
	if code, out, _ := e.hookside(t, "", "hooks", "list", "--event", "PreToolUse"); code != exitOK || strings.Contains(out, "cannot run") {
		t.Errorf("--event PreToolUse: exit %d, stdout %q", code, out)
	}
	if code, out, _ := e.hookside(t, "", "hooks", "list", "--event", "PreToolUse", "--json"); code != exitOK || !strings.Contains(out, `"cannotRun": []`) {
		t.Errorf("--event PreToolUse --json: exit %d, stdout %q", code, out)
	}
}

// TestHooksListCannotRunHintEvent: the explain hint names an --event the
// command accepts: for a misspelt event ("PreToolUSE") the one it
// resembles, for an event like none no explain hint — and the hinted
// command runs.
func TestHooksListCannotRunHintEvent(t *testing.T) {
	for _, c := range []struct{ event, want string }{
		{"PreToolUSE", "hookside hooks explain --event PreToolUse --home "},
		{"Bogus", "The diagnostics above say more.\n"},
	} {
		e := newCLIEnv(t)
		e.userConfig(t, oneHook(c.event, map[string]any{"type": "process", "command": "true"}))
		_, out, _ := e.hookside(t, "", "hooks", "list")
		if !strings.Contains(out, c.want) {
			t.Errorf("%s: stdout lacks %q:\n%s", c.event, c.want, out)
			continue
		}
		i := strings.Index(out, "hookside hooks explain")
		if i < 0 {
			continue
		}
		args := strings.Fields(out[i+len("hookside "):])
		args = args[:slices.Index(args, "shows")]
		if code, out, errs := e.hookside(t, "", args...); code != exitOK {
			t.Errorf("%s: the hinted %q: exit %d\n%s%s", c.event, args, code, out, errs)
		}
	}
}

// TestHooksListCountsDisabledOfEveryEvent: a declaration that says
// "enabled": false, or sits in a file switched off, is counted by hooks
// list without --event whatever its event (it was counted for SessionStart
// only: the list reads one event's explanation, where the others read as
// declared for another event).
func TestHooksListCountsDisabledOfEveryEvent(t *testing.T) {
	for _, c := range []struct {
		name   string
		cfg    string
		reason string
	}{
		{"declaration", `{"hooks":{"enabled":true,"events":{"Stop":[{"hooks":[{"type":"command","command":"true","enabled":false}]}]}}}`, "disabled"},
		{"file", `{"hooks":{"enabled":false,"events":{"PreToolUse":[{"hooks":[{"type":"command","command":"true"}]}]}}}`, "file_disabled"},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newCLIEnv(t)
			writeFiles(t, map[string]string{filepath.Join(e.home, "config.json"): c.cfg})
			code, out, _ := e.hookside(t, "", "hooks", "list")
			if code != exitOK || !strings.Contains(out, "no hooks run: 1 configured hook(s) cannot run") || !strings.Contains(out, c.reason) {
				t.Errorf("hooks list: exit %d, stdout %q; want 1 that cannot run, %s", code, out, c.reason)
			}
			_, out, _ = e.hookside(t, "", "hooks", "list", "--json")
			var got struct {
				CannotRun []struct{ Reason string } `json:"cannotRun"`
			}
			if err := json.Unmarshal([]byte(out), &got); err != nil || len(got.CannotRun) != 1 || got.CannotRun[0].Reason != c.reason {
				t.Errorf("--json cannotRun = %+v (%v), want one %s: %s", got.CannotRun, err, c.reason, out)
			}
		})
	}
}

// TestHooksListEmptyUnknownEventIsNoHook: an unknown event whose value is
// [] or null declares no hook: its diagnostic says the key is wrong, and
// it is not counted among the hooks that cannot run; one with hooks is.
func TestHooksListEmptyUnknownEventIsNoHook(t *testing.T) {
	e := newCLIEnv(t)
	e.userConfig(t, map[string]any{
		"PreToolUse": []any{map[string]any{"matcher": "Bash", "hooks": []any{map[string]any{"type": "command", "command": "true"}}}},
		"Stpo":       []any{},
		"Stp":        nil,
	})
	code, out, errs := e.hookside(t, "", "hooks", "list")
	if code != exitOK || !strings.HasPrefix(out, "PreToolUse ") || strings.Contains(out, "cannot run") ||
		!strings.Contains(errs, `unknown event "Stpo"`) || !strings.Contains(errs, `unknown event "Stp"`) {
		t.Errorf("empty unknown events: exit %d\nstdout %s\nstderr %s", code, out, errs)
	}
	e.userConfig(t, map[string]any{
		"PreToolUse": []any{map[string]any{"matcher": "Bash", "hooks": []any{map[string]any{"type": "command", "command": "true"}}}},
		"Stpo":       []any{map[string]any{"hooks": []any{map[string]any{"type": "command", "command": "true"}}}},
	})
	if code, out, _ := e.hookside(t, "", "hooks", "list"); code != exitOK || !strings.Contains(out, "1 more configured hook(s) cannot run and are not listed:") || !strings.Contains(out, `event "Stpo" is not supported`) {
		t.Errorf("unknown event with hooks: exit %d\nstdout %s", code, out)
	}
}
