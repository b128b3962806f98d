package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestUserConfigNamedMissing: --user-config naming a file that is not
// there warns on stderr (config_file_not_found, naming the file) in hooks
// run and hooks list; the run goes on without user hooks. The home's
// default config.json missing says nothing.
func TestUserConfigNamedMissing(t *testing.T) {
	e := newCLIEnv(t)
	e.userConfig(t, oneHook("Stop", map[string]any{"type": "command", "command": "echo home"}))
	missing := filepath.Join(e.root, "typo.json")
	for _, args := range [][]string{
		{"hooks", "run", "--event", "Stop", "--user-config", missing},
		{"hooks", "list", "--user-config", missing},
	} {
		code, out, errs := e.hookside(t, "", args...)
		if code != exitOK || !strings.Contains(errs, missing+": warning: the user config file does not exist") || !strings.Contains(errs, "[config_file_not_found]") {
			t.Errorf("%v: exit %d, stderr %q; want exit 0 and a config_file_not_found warning naming %s", args, code, errs, missing)
		}
		if strings.Contains(out, "echo home") {
			t.Errorf("%v: the home's config.json stood in for the named file:\n%s", args, out)
		}
	}
	bare := newCLIEnv(t)
	if code, _, errs := bare.hookside(t, "", "hooks", "list"); code != exitOK || strings.Contains(errs, "config_file_not_found") {
		t.Errorf("default config missing: exit %d, stderr %q; want no warning", code, errs)
	}
}

// TestHooksListBrokenFileIsNotNothing: hooks list whose only file does not
// parse says its hooks are not loaded (not "no hooks configured"), the
// error with its position on stderr.
func TestHooksListBrokenFileIsNotNothing(t *testing.T) {
	e := newCLIEnv(t)
	writeFiles(t, map[string]string{filepath.Join(e.home, "config.json"): `{"hooks":{"enabled":true,"events":{"Stop":[{"hooks":[{"type":"command","command":"true"}]},]}}}`})
	code, out, errs := e.hookside(t, "", "hooks", "list")
	if code != exitOK || out != "no hooks loaded: 1 configuration file(s) could not be read (see the errors above); their hooks do not run\n" || !strings.Contains(errs, "config.json:1:91: error: invalid JSON: a trailing comma before ']'") {
		t.Errorf("exit %d\nstdout %q\nstderr %q", code, out, errs)
	}
	// JSON whose top level is not an object is no configuration either.
	for _, top := range []string{`[]`, `"hooks"`, `5`} {
		writeFiles(t, map[string]string{filepath.Join(e.home, "config.json"): top})
		code, out, errs := e.hookside(t, "", "hooks", "list")
		if code != exitOK || out != "no hooks loaded: 1 configuration file(s) could not be read (see the errors above); their hooks do not run\n" || !strings.Contains(errs, "config.json:1:1: error: top-level value must be an object") {
			t.Errorf("config.json %s: exit %d\nstdout %q\nstderr %q", top, code, out, errs)
		}
	}
}

// TestCommandHookMissingShell: a command hook whose `shell` names a
// program that is not in PATH gets the load-time process_hook_not_found
// warning at its declaration, and its run fails without running anything;
// the default shell is not looked at.
func TestCommandHookMissingShell(t *testing.T) {
	e := newCLIEnv(t)
	e.userConfig(t, map[string]any{"Stop": []any{map[string]any{"hooks": []any{
		map[string]any{"type": "command", "command": "echo hi", "shell": "no-such-hookside-shell"},
		map[string]any{"type": "command", "command": "echo fine"},
	}}}})
	code, out, errs := e.hookside(t, "", "hooks", "run", "--event", "Stop")
	if code != exitOK || strings.Count(errs, "[process_hook_not_found]") != 1 || !strings.Contains(errs, `its shell: executable "no-such-hookside-shell" is not in PATH`) {
		t.Errorf("exit %d, stderr %q; want one process_hook_not_found naming the shell", code, errs)
	}
	if !strings.Contains(out, "failed") || !strings.Contains(out, "succeeded") {
		t.Errorf("want the shell's hook failed and the other succeeded:\n%s", out)
	}
}
