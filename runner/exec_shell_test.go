package runner

import (
	"errors"
	"slices"
	"testing"

	"github.com/hookside/hookside/runner/config"
)

func TestShellArgv(t *testing.T) {
	const cmd = `echo "$X" | jq . # a comment`
	for _, tc := range []struct {
		name  string
		kind  config.ShellKind
		shell string
		want  []string // nil: an error wrapping ErrInvalidShell
	}{
		{"unset_is_sh_c", config.ShellUnset, "", []string{"sh", "-c", cmd}},
		{"empty_kind_is_sh_c", "", "", []string{"sh", "-c", cmd}},
		{"true_is_sh_c", config.ShellTrue, "", []string{"sh", "-c", cmd}},
		{"true_ignores_shell_string", config.ShellTrue, "zsh", []string{"sh", "-c", cmd}},
		{"one_word_gets_dash_c", config.ShellString, "bash", []string{"bash", "-c", cmd}},
		{"one_word_path_gets_dash_c", config.ShellString, "/bin/zsh", []string{"/bin/zsh", "-c", cmd}},
		{"one_word_surrounding_blanks", config.ShellString, "  bash\t", []string{"bash", "-c", cmd}},
		{"several_words_command_appended", config.ShellString, "bash -lc", []string{"bash", "-lc", cmd}},
		{"env_form_command_appended", config.ShellString, "/usr/bin/env zsh -c", []string{"/usr/bin/env", "zsh", "-c", cmd}},
		{"single_quotes_keep_spaces", config.ShellString, "'/opt/my shell/sh' -c", []string{"/opt/my shell/sh", "-c", cmd}},
		{"backslash_escapes_space", config.ShellString, `/opt/my\ shell/sh -c`, []string{"/opt/my shell/sh", "-c", cmd}},
		// shlex's POSIX gaps, documented on ShellArgv.
		{"gap_backslash_in_double_quotes_is_dropped", config.ShellString, `"a\b" -c`, []string{"ab", "-c", cmd}},
		{"gap_hash_starts_a_comment", config.ShellString, "bash #-lc", []string{"bash", "-c", cmd}},
		{"gap_no_tilde_or_variable_expansion", config.ShellString, "~/bin/sh $FLAG", []string{"~/bin/sh", "$FLAG", cmd}},
		{"gap_ansi_c_quotes_not_supported", config.ShellString, `$'\t' -c`, []string{`$\t`, "-c", cmd}},
		{"gap_operators_are_plain_words", config.ShellString, "sh;rm -c", []string{"sh;rm", "-c", cmd}},
		// Errors.
		{"empty_string_is_error", config.ShellString, "", nil},
		{"blank_string_is_error", config.ShellString, " \t\n", nil},
		{"only_comment_is_error", config.ShellString, "#bash", nil},
		{"unterminated_quote_is_error", config.ShellString, `bash "-c`, nil},
		{"trailing_backslash_is_error", config.ShellString, `bash \`, nil},
		{"unknown_kind_is_error", config.ShellKind("fish"), "fish", nil},
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
