package pin

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/hookside/hookside/internal/hook"
)

// TestPinCommandLines shows which workspace files a command hook's line
// pins, case by case: cd, globs, `.`/`source`, quoting, here-documents,
// command substitution and compound commands. was is what the hand-written
// lexer that preceded the shfmt parser pinned; want is never less than was
// (over-inclusion only makes trust stricter).
func TestPinCommandLines(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{"hooks/x.sh", "hooks/lib.sh", "hooks/x.py", "hooks/run.sh", "hooks/gen.sh",
		"hooks/a.sh", "hooks/b.sh", "hooks/my script.sh", "hooks/p.py"} {
		content := "true\n"
		if f == "hooks/x.sh" {
			content = "#!/bin/sh\n. ./hooks/lib.sh\n"
		}
		writeFile(t, filepath.Join(root, f), content)
	}
	_ = os.MkdirAll(filepath.Join(root, "out"), 0o755)
	tests := []struct {
		name, line string
		was, want  []string
	}{
		{"cd_then_interpreter", "cd hooks && bash run.sh", []string{"hooks/run.sh", "run.sh"}, []string{"hooks/run.sh", "run.sh"}},
		{"cd_quoted", `cd "hooks" && ./x.py`, []string{"hooks/x.py", "x.py"}, []string{"hooks/x.py", "x.py"}},
		{"glob", "bash hooks/*.py", []string{"hooks/p.py", "hooks/x.py"}, []string{"hooks/p.py", "hooks/x.py"}},
		{"quoted_glob_is_literal", "bash 'hooks/*.py'", []string{"hooks/*.py"}, []string{"hooks/*.py"}},
		{"dot_source", ". ./hooks/lib.sh", []string{"hooks/lib.sh"}, []string{"hooks/lib.sh"}},
		{"source_keyword", "source hooks/lib.sh", []string{"hooks/lib.sh"}, []string{"hooks/lib.sh"}},
		{"double_quoted_space", `bash "hooks/my script.sh"`, []string{"hooks/my script.sh"}, []string{"hooks/my script.sh"}},
		{"backslash_space", `bash hooks/my\ script.sh`, []string{"hooks/my script.sh"}, []string{"hooks/my script.sh"}},
		{"concatenated_quotes", `bash 'hooks/x'.sh`, []string{"hooks/lib.sh", "hooks/x.sh"}, []string{"hooks/lib.sh", "hooks/x.sh"}},
		{"comment_ignored", "./hooks/x.py # ./hooks/run.sh", []string{"hooks/x.py"}, []string{"hooks/x.py"}},
		{"heredoc_to_shell", "bash <<'EOF'\n./hooks/run.sh\nEOF", []string{"hooks/run.sh"}, []string{"hooks/run.sh"}},
		{"heredoc_then_command", "cat <<EOF > out/t.txt\nhello\nEOF\n./hooks/x.py", []string{"hooks/x.py"}, []string{"hooks/x.py"}},
		{"command_substitution", "echo $(./hooks/gen.sh)", nil, []string{"hooks/gen.sh"}},
		{"backquotes", "echo `./hooks/gen.sh`", nil, []string{"hooks/gen.sh"}},
		{"quoted_substitution", `echo "$(bash hooks/gen.sh)"`, nil, []string{"hooks/gen.sh"}},
		{"process_substitution", "diff <(./hooks/a.sh) <(./hooks/b.sh)", []string{"hooks/a.sh", "hooks/b.sh"}, []string{"hooks/a.sh", "hooks/b.sh"}},
		{"if_test_then", "if [ -f hooks/x.sh ]; then bash hooks/run.sh; fi", []string{"hooks/lib.sh", "hooks/run.sh", "hooks/x.sh"}, []string{"hooks/lib.sh", "hooks/run.sh", "hooks/x.sh"}},
		{"double_bracket_test", "[[ -x ./hooks/a.sh ]] && ./hooks/b.sh", []string{"hooks/a.sh", "hooks/b.sh"}, []string{"hooks/a.sh", "hooks/b.sh"}},
		{"pipeline", "./hooks/x.py | tee out/log", []string{"hooks/x.py", "out/log"}, []string{"hooks/x.py", "out/log"}},
		{"sh_c_nested_cd", `bash -c "cd hooks && ./run.sh"`, []string{"hooks/run.sh", "run.sh"}, []string{"hooks/run.sh", "run.sh"}},
		{"for_loop_glob", `for f in hooks/*.py; do python3 "$f"; done`, []string{"hooks/p.py", "hooks/x.py"}, []string{"hooks/p.py", "hooks/x.py"}},
		{"function_body", "f() { ./hooks/run.sh; }; f", []string{"hooks/run.sh"}, []string{"hooks/run.sh"}},
		{"case_arm", "case $1 in a) ./hooks/a.sh;; esac", []string{"hooks/a.sh"}, []string{"hooks/a.sh"}},
		{"assignment_prefix", "X=./hooks/a.sh ./hooks/b.sh", []string{"hooks/b.sh"}, []string{"hooks/a.sh", "hooks/b.sh"}},
		{"unbalanced_quote", `bash "hooks/run.sh`, []string{"hooks/run.sh"}, []string{"hooks/run.sh"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if checkWindowsSyntax && windowsSyntax(cmdHook(tc.line)) != nil {
				if _, err := PinScripts(cmdHook(tc.line), root); !errors.Is(err, ErrUnreadableSyntax) {
					t.Fatalf("windows: PinScripts(%q) = %v, want ErrUnreadableSyntax", tc.line, err)
				}
				return
			}
			got := ScriptPaths(cmdHook(tc.line), root)
			for _, p := range tc.was {
				if !slices.Contains(tc.want, p) {
					t.Fatalf("table: %s pinned %q before; want must keep it", tc.name, p)
				}
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("ScriptPaths(%q) = %q, want %q", tc.line, got, tc.want)
			}
		})
	}
}

func cmdHook(command string) hook.Hook {
	return hook.Hook{Event: hook.PreToolUse, Source: hook.Source{Kind: hook.SourceWorkspace, RelativePath: "zcode.json"},
		Type: hook.TypeCommand, Command: command, TimeoutMs: hook.DefaultTimeoutMs, MaxOutputBytes: hook.DefaultMaxOutputBytes}
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// workspace writes files (slash paths relative to the root → content)
// under a fresh temporary directory and returns that root.
func workspace(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for f, content := range files {
		writeFile(t, filepath.Join(root, f), content)
	}
	return root
}

// checkPaths reports each path of want missing from got and each path of
// notWant present in it; got is the pinned paths of line.
func checkPaths(t *testing.T, line string, got, want, notWant []string) {
	t.Helper()
	for _, w := range want {
		if !slices.Contains(got, w) {
			t.Errorf("pins of %q = %q, want %q among them", line, got, w)
		}
	}
	for _, w := range notWant {
		if slices.Contains(got, w) {
			t.Errorf("pins of %q = %q, want no %q", line, got, w)
		}
	}
}
