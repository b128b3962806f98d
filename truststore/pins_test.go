package truststore

import (
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"testing"

	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/truststore/pin"
)

func cmdHook(command string) hook.Hook {
	return hook.Hook{Event: "PreToolUse", Source: hook.Source{Kind: hook.SourceWorkspace, RelativePath: "zcode.json"},
		Type: hook.TypeCommand, Command: command,
		TimeoutMs: hook.DefaultTimeoutMs, MaxOutputBytes: hook.DefaultMaxOutputBytes}
}

// windowsGaps are TestScriptPathsHeuristics cases whose fixture or
// expectation is Unix-only, with the reason.
var windowsGaps = map[string]string{
	"process_star_is_literal": "the fixture is a file named hooks/x.s?, and '?' is not allowed in Windows file names",
	"outside_not_pinned":      "/etc/profile has no drive on Windows, so it is pinned (as absent) inside the workspace: stricter, not looser",
	"shell_string":            "a shell that is not a POSIX shell (hooks/mysh) makes the declaration unpinnable on Windows (pin.ErrUnreadableSyntax, TestWindowsSyntax)",
}

// TestScriptPathsHeuristics: which workspace paths a command line pins
// (absent scripts, symlinks out of the root, cd, globs, sourced files, plugin roots).
func TestScriptPathsHeuristics(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	writeFile(t, filepath.Join(root, "hooks/x.sh"), "#!/bin/sh\n. ./hooks/lib.sh\n")
	writeFile(t, filepath.Join(root, "hooks/lib.sh"), "true\n")
	writeFile(t, filepath.Join(root, "hooks/x.py"), "print(1)\n")
	writeFile(t, filepath.Join(root, "plug/run.sh"), "true\n")
	writeFile(t, filepath.Join(outside, "ext.sh"), "true\n")
	if err := os.Symlink(filepath.Join(outside, "ext.sh"), filepath.Join(root, "hooks/ext.sh")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(root, "extdir")); err != nil {
		t.Fatal(err)
	}
	plugin := cmdHook("${CLAUDE_PLUGIN_ROOT}/run.sh")
	plugin.Source.PluginRoot = filepath.Join(root, "plug")
	zplugin := plugin
	zplugin.Command = "bash $ZCODE_PLUGIN_ROOT/run.sh"
	shellStr := cmdHook("echo hi")
	shellStr.Shell = hook.ShellProgram("./hooks/mysh -e")
	proc := func(cmd string, args ...string) hook.Hook {
		h := cmdHook(cmd)
		h.Type, h.Args = hook.TypeProcess, args
		return h
	}
	tests := []struct {
		name string
		h    hook.Hook
		want []string
	}{
		{"missing_script", cmdHook("./hooks/new.sh"), []string{"hooks/new.sh"}},
		{"missing_interpreter_operand", cmdHook("bash new.sh"), []string{"new.sh"}},
		{"missing_python_after_option", cmdHook("python3 -u tool.py"), []string{"tool.py"}},
		{"inline_code_is_not_a_file", cmdHook("node -e console.log"), nil},
		{"source_missing", cmdHook(". lib2.sh"), []string{"lib2.sh"}},
		{"option_is_not_a_file", cmdHook("bash -e"), nil},
		{"shell_option_before_script", cmdHook("bash -e -o pipefail ./hooks/new.sh"), []string{"hooks/new.sh"}},
		{"shell_bare_script_after_options", cmdHook("bash -eu new.sh"), []string{"new.sh"}},
		{"process_shell_option", proc("sh", "-e", "hooks/new.sh"), []string{"hooks/new.sh"}},
		{"cd_then_relative", cmdHook("cd hooks && ./x.sh"), []string{"hooks/hooks/lib.sh", "hooks/lib.sh", "hooks/x.sh", "x.sh"}},
		{"cd_in_subshell", cmdHook("(cd hooks; ./x.py); ./b.sh"), []string{"b.sh", "hooks/b.sh", "hooks/x.py", "x.py"}},
		{"sh_c_script", cmdHook(`sh -c 'cd hooks && python3 x.py'`), []string{"hooks/x.py", "x.py"}},
		{"glob_matches", cmdHook("./hooks/x.s?"), []string{"hooks/lib.sh", "hooks/x.sh"}},
		{"link_out_file", cmdHook("./hooks/ext.sh"), []string{"hooks/ext.sh"}},
		{"link_out_dir", cmdHook("sh extdir/ext.sh"), []string{"extdir/ext.sh"}},
		{"plugin_root", plugin, []string{"plug/run.sh"}},
		{"plugin_root_unbraced", zplugin, []string{"plug/run.sh"}},
		{"shell_string", shellStr, []string{"hooks/mysh"}},
		{"output_redirect_skipped", cmdHook("./hooks/x.py > out/log.txt 2>out/err"), []string{"hooks/x.py"}},
		{"input_redirect", cmdHook("sh < hooks/new.sh"), []string{"hooks/new.sh"}},
		{"heredoc_word_skipped", cmdHook("cat <<./EOF"), nil},
		{"option_value", cmdHook("node --require=./hooks/req.js app"), []string{"app", "hooks/req.js"}},
		{"env_prefix", cmdHook("FOO=1 exec ./hooks/x.py"), []string{"1", "hooks/x.py"}},
		{"process_sh_c", proc("sh", "-c", "./hooks/new.sh"), []string{"hooks/new.sh"}},
		{"process_star_is_literal", proc("sh", "hooks/x.s?"), []string{"hooks/x.s?"}},
		{"dynamic_not_followed", cmdHook(`"$HOME"/x.sh $(whoami)/y.sh ~/z.sh`), nil},
		{"pwd_subst_is_session_dir", cmdHook(`sh $(pwd)/y.sh`), []string{"y.sh"}},
		{"outside_not_pinned", cmdHook("sh ../elsewhere.sh /etc/profile"), nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if why := windowsGaps[tc.name]; why != "" && runtime.GOOS == "windows" {
				t.Skip("windows: " + why)
			}
			if got := pin.ScriptPaths(tc.h, root); !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("ScriptPaths(%q) = %q, want %q", tc.h.Command, got, tc.want)
			}
		})
	}
}

// TestPinHolesClosed: a granted declaration stays trusted while nothing
// changes (checked twice, so the hash cache's fast path is exercised) and
// becomes stale_digest/script_changed after each hostile change.
func TestPinHolesClosed(t *testing.T) {
	symlinkUsable(t, "")
	type env struct{ root, out string }
	tests := []struct {
		name   string
		setup  func(e env)
		hook   func(e env) hook.Hook
		mutate func(e env)
	}{
		{"absent_at_grant_then_added",
			func(e env) {},
			func(e env) hook.Hook { return cmdHook("./hooks/x.sh") },
			func(e env) { writeFile(t, filepath.Join(e.root, "hooks/x.sh"), "#!/bin/sh\necho EVIL\n") }},
		{"absent_dir_then_added",
			func(e env) {},
			func(e env) hook.Hook { return cmdHook("bash x.sh") },
			func(e env) { writeFile(t, filepath.Join(e.root, "x.sh"), "echo EVIL\n") }},
		{"dangling_link_target_appears",
			func(e env) { symlink(t, filepath.Join(e.out, "later.sh"), filepath.Join(e.root, "hooks/x.sh")) },
			func(e env) hook.Hook { return cmdHook("./hooks/x.sh") },
			func(e env) { writeFile(t, filepath.Join(e.out, "later.sh"), "echo EVIL\n") }},
		{"link_out_target_edited",
			func(e env) {
				writeFile(t, filepath.Join(e.out, "x.sh"), "echo good\n")
				symlink(t, filepath.Join(e.out, "x.sh"), filepath.Join(e.root, "hooks/x.sh"))
			},
			func(e env) hook.Hook { return cmdHook("./hooks/x.sh") },
			func(e env) { writeFile(t, filepath.Join(e.out, "x.sh"), "echo EVIL\n") }},
		{"dir_link_out_target_edited",
			func(e env) {
				writeFile(t, filepath.Join(e.out, "x.sh"), "echo good\n")
				symlink(t, e.out, filepath.Join(e.root, "hooks"))
			},
			func(e env) hook.Hook { return cmdHook("./hooks/x.sh") },
			func(e env) { writeFile(t, filepath.Join(e.out, "x.sh"), "echo EVIL\n") }},
		{"link_out_retargeted_same_content",
			func(e env) {
				writeFile(t, filepath.Join(e.out, "a.sh"), "echo same\n")
				writeFile(t, filepath.Join(e.out, "b.sh"), "echo same\n")
				symlink(t, filepath.Join(e.out, "a.sh"), filepath.Join(e.root, "hooks/x.sh"))
			},
			func(e env) hook.Hook { return cmdHook("./hooks/x.sh") },
			func(e env) {
				_ = os.Remove(filepath.Join(e.root, "hooks/x.sh"))
				symlink(t, filepath.Join(e.out, "b.sh"), filepath.Join(e.root, "hooks/x.sh"))
			}},
		{"inside_file_replaced_by_link_out",
			func(e env) {
				writeFile(t, filepath.Join(e.root, "hooks/x.sh"), "echo good\n")
				writeFile(t, filepath.Join(e.out, "x.sh"), "echo good\n")
			},
			func(e env) hook.Hook { return cmdHook("./hooks/x.sh") },
			func(e env) {
				_ = os.Remove(filepath.Join(e.root, "hooks/x.sh"))
				symlink(t, filepath.Join(e.out, "x.sh"), filepath.Join(e.root, "hooks/x.sh"))
			}},
		{"cd_then_script_edited",
			func(e env) { writeFile(t, filepath.Join(e.root, "hooks/x.sh"), "echo good\n") },
			func(e env) hook.Hook { return cmdHook("cd hooks && ./x.sh") },
			func(e env) { writeFile(t, filepath.Join(e.root, "hooks/x.sh"), "echo EVIL\n") }},
		{"glob_match_edited",
			func(e env) { writeFile(t, filepath.Join(e.root, "hooks/x.sh"), "echo good\n") },
			func(e env) hook.Hook { return cmdHook("./hooks/x.s?") },
			func(e env) { writeFile(t, filepath.Join(e.root, "hooks/x.sh"), "echo EVIL\n") }},
		{"glob_new_match",
			func(e env) { writeFile(t, filepath.Join(e.root, "hooks/x.sh"), "echo good\n") },
			func(e env) hook.Hook { return cmdHook("for f in hooks/*.sh; do sh $f; done") },
			func(e env) { writeFile(t, filepath.Join(e.root, "hooks/a.sh"), "echo EVIL\n") }},
		{"sourced_lib_edited",
			func(e env) {
				writeFile(t, filepath.Join(e.root, "hooks/x.sh"), "#!/bin/sh\n. \"$(dirname \"$0\")/lib.sh\"\n")
				writeFile(t, filepath.Join(e.root, "hooks/lib.sh"), "echo good\n")
			},
			func(e env) hook.Hook { return cmdHook("./hooks/x.sh") },
			func(e env) { writeFile(t, filepath.Join(e.root, "hooks/lib.sh"), "echo EVIL\n") }},
		{"sourced_via_dir_variable",
			func(e env) {
				writeFile(t, filepath.Join(e.root, "hooks/x"), "#!/usr/bin/env bash\nDIR=\"$(cd \"$(dirname \"${BASH_SOURCE[0]}\")\" && pwd)\"\nsource \"$DIR/lib/common.sh\"\n")
				writeFile(t, filepath.Join(e.root, "hooks/lib/common.sh"), ". ./deep.sh\n")
			},
			func(e env) hook.Hook { return cmdHook("hooks/x") },
			func(e env) { writeFile(t, filepath.Join(e.root, "deep.sh"), "echo EVIL\n") }},
		{"plugin_root_script_edited",
			func(e env) { writeFile(t, filepath.Join(e.root, "plug/x.sh"), "echo good\n") },
			func(e env) hook.Hook {
				h := cmdHook("${CLAUDE_PLUGIN_ROOT}/x.sh")
				h.Source.PluginRoot = filepath.Join(e.root, "plug")
				return h
			},
			func(e env) { writeFile(t, filepath.Join(e.root, "plug/x.sh"), "echo EVIL\n") }},
		{"shell_binary_in_workspace",
			func(e env) { writeFile(t, filepath.Join(e.root, "tools/mysh"), "#!/bin/sh\n") },
			func(e env) hook.Hook {
				h := cmdHook("echo hi")
				h.Shell = hook.ShellProgram("./tools/mysh")
				return h
			},
			func(e env) { writeFile(t, filepath.Join(e.root, "tools/mysh"), "#!/bin/sh\necho EVIL\n") }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := env{root: t.TempDir(), out: t.TempDir()}
			tc.setup(e)
			h := tc.hook(e)
			pins, err := pin.PinScripts(h, e.root)
			if err != nil {
				t.Fatal(err)
			}
			if pins.Empty() {
				t.Fatalf("nothing pinned for %q", h.Command)
			}
			rec := newPinnedRecord("w", h, pins, nil)
			if err := rec.Pins().Validate(); err != nil {
				t.Fatal(err)
			}
			in := EvalInput{WorkspaceID: "w", Store: newState(StatusOK, []Record{rec}), WorkspaceRoot: e.root,
				Hashes: pin.NewHashCache(), Declarations: []Declaration{Declare(h)}}
			for i := 0; i < 2; i++ {
				if ev := Evaluate(in)[0]; ev.State != TrustedPersistent {
					t.Fatalf("unchanged (check %d): %+v, pins %+v", i, ev, pins)
				}
			}
			tc.mutate(e)
			if ev := Evaluate(in)[0]; ev.State != StaleDigest || ev.Reason != ReasonScriptChanged {
				t.Fatalf("after the change: %+v (pins %+v)", ev, pins)
			}
		})
	}
}

// TestGrantRoundTripsPins: absent, link and glob pins survive the trust
// file (written by Grant, validated by Load).
func TestGrantRoundTripsPins(t *testing.T) {
	symlinkUsable(t, "")
	root, out := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(out, "x.sh"), "echo good\n")
	symlink(t, filepath.Join(out, "x.sh"), filepath.Join(root, "hooks/ext.sh"))
	writeFile(t, filepath.Join(root, "hooks/a.py"), "1\n")
	h := cmdHook("./hooks/ext.sh ./hooks/new.sh; python3 hooks/*.py")
	pins, err := pin.PinScripts(h, root)
	if err != nil {
		t.Fatal(err)
	}
	if len(pins.Links) != 1 || pins.Scripts["hooks/new.sh"] != pin.AbsentPin || len(pins.Globs) != 1 {
		t.Fatalf("pins %+v", pins)
	}
	s := Open(filepath.Join(t.TempDir(), "security"), Options{})
	if err := s.Grant("w", []Record{newPinnedRecord("w", h, pins, nil)}); err != nil {
		t.Fatal(err)
	}
	st, err := s.Load()
	if err != nil || len(st.Records) != 1 {
		t.Fatalf("load: %v %+v", err, st)
	}
	if got := st.Records[0].Pins(); !got.Equal(pins) {
		t.Fatalf("round trip: %+v, want %+v", got, pins)
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}
