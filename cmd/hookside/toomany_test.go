package main

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestTooManyHooksInWorkspaceFile: a workspace zcode.json over the
// per-file limit (2049 matcher groups) is one positioned
// config_too_many_hooks error for hooks list, which says the file's hooks
// are not loaded (not "no hooks configured"); hooks trust status lists no
// declaration to review or grant.
func TestTooManyHooksInWorkspaceFile(t *testing.T) {
	e := newCLIEnv(t)
	group := `{"hooks":[{"type":"command","command":"true"}]}`
	doc := `{"hooks":{"events":{"PreToolUse":[` + strings.Repeat(group+",", 2048) + group + `]}}}`
	writeFiles(t, map[string]string{filepath.Join(e.ws, "zcode.json"): doc})
	col := strings.LastIndex(doc, group) + 1
	want := "zcode.json:1:" + strconv.Itoa(col) + ": error: PreToolUse[2048]: more than 2048 matcher groups in one file; none of this file's hooks are loaded [config_too_many_hooks]"
	code, out, errs := e.hookside(t, "", "hooks", "list")
	if code != exitOK || out != "no hooks loaded: 1 configuration file(s) could not be read (see the errors above); their hooks do not run\n" || !strings.Contains(errs, want) {
		t.Errorf("hooks list: exit %d\nstdout %q\nstderr %q\nwant stderr with %q", code, out, errs, want)
	}
	code, out, errs = e.hookside(t, "", "hooks", "trust", "status")
	if code != exitOK || !strings.Contains(out, "no workspace hook declarations") {
		t.Errorf("hooks trust status: exit %d\nstdout %q\nstderr %q", code, out, errs)
	}
}
