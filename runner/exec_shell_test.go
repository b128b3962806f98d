package runner

import (
	"errors"
	"slices"
	"testing"

	"github.com/hookside/hookside/internal/hook"
)

func TestShellArgv(t *testing.T) {
	const cmd = `echo "$X" | jq . # a comment`
	for _, tc := range []struct {
		name  string
		kind  hook.ShellKind
		shell string
		want  []string // nil: an error wrapping ErrInvalidShell
	}{
		{"unset_is_sh_c", hook.ShellUnset, "", []string{"sh", "-c", cmd}},
		{"empty_kind_is_sh_c", "", "", []string{"sh", "-c", cmd}},
		{"true_is_sh_c", hook.ShellTrue, "", []string{"sh", "-c", cmd}},
		{"true_ignores_shell_string", hook.ShellTrue, "zsh", []string{"sh", "-c", cmd}},
		{"one_word_gets_dash_c", hook.ShellString, "bash", []string{"bash", "-c", cmd}},
		{"one_word_path_gets_dash_c", hook.ShellString, "/bin/zsh", []string{"/bin/zsh", "-c", cmd}},
		{"one_word_surrounding_blanks", hook.ShellString, "  bash\t", []string{"bash", "-c", cmd}},
		{"several_words_command_appended", hook.ShellString, "bash -lc", []string{"bash", "-lc", cmd}},
		{"env_form_command_appended", hook.ShellString, "/usr/bin/env zsh -c", []string{"/usr/bin/env", "zsh", "-c", cmd}},
		{"single_quotes_keep_spaces", hook.ShellString, "'/opt/my shell/sh' -c", []string{"/opt/my shell/sh", "-c", cmd}},
		{"backslash_escapes_space", hook.ShellString, `/opt/my\ shell/sh -c`, []string{"/opt/my shell/sh", "-c", cmd}},
		// shlex's POSIX gaps, documented on ShellArgv.
		{"gap_backslash_in_double_quotes_is_dropped", hook.ShellString, `"a\b" -c`, []string{"ab", "-c", cmd}},
		{"gap_hash_starts_a_comment", hook.ShellString, "bash #-lc", []string{"bash", "-c", cmd}},
		{"gap_no_tilde_or_variable_expansion", hook.ShellString, "~/bin/sh $FLAG", []string{"~/bin/sh", "$FLAG", cmd}},
		{"gap_ansi_c_quotes_not_supported", hook.ShellString, `$'\t' -c`, []string{`$\t`, "-c", cmd}},
		{"gap_operators_are_plain_words", hook.ShellString, "sh;rm -c", []string{"sh;rm", "-c", cmd}},
		// Errors.
		{"empty_string_is_error", hook.ShellString, "", nil},
		{"blank_string_is_error", hook.ShellString, " \t\n", nil},
		{"only_comment_is_error", hook.ShellString, "#bash", nil},
		{"unterminated_quote_is_error", hook.ShellString, `bash "-c`, nil},
		{"trailing_backslash_is_error", hook.ShellString, `bash \`, nil},
		{"unknown_kind_is_error", hook.ShellKind("fish"), "fish", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ShellArgv(tc.kind, tc.shell, cmd)
			if tc.want == nil {
				if !errors.Is(err, ErrInvalidShell) {
					t.Fatalf("ShellArgv(%q, %q) = %q, %v; want an error wrapping ErrInvalidShell", tc.kind, tc.shell, got, err)
				}
				return
			}
			if err != nil || !slices.Equal(got, tc.want) {
				t.Fatalf("ShellArgv(%q, %q) = %q, %v; want %q", tc.kind, tc.shell, got, err, tc.want)
			}
		})
	}
}
