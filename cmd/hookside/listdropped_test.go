package main

import (
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
