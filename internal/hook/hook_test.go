package hook

import (
	"encoding/json"
	"errors"
	"slices"
	"testing"
)

func TestShellArgv(t *testing.T) {
	const cmd = `echo "$X" | jq . # a comment`
	for _, tc := range []struct {
		name  string
		kind  ShellKind
		shell string
		want  []string // nil: an error wrapping ErrInvalidShell
	}{
		{"unset_is_sh_c", ShellUnset, "", []string{"sh", "-c", cmd}},
		{"empty_kind_is_sh_c", "", "", []string{"sh", "-c", cmd}},
		{"true_is_sh_c", ShellTrue, "", []string{"sh", "-c", cmd}},
		{"true_ignores_shell_string", ShellTrue, "zsh", []string{"sh", "-c", cmd}},
		{"one_word_gets_dash_c", ShellString, "bash", []string{"bash", "-c", cmd}},
		{"one_word_path_gets_dash_c", ShellString, "/bin/zsh", []string{"/bin/zsh", "-c", cmd}},
		{"one_word_surrounding_blanks", ShellString, "  bash\t", []string{"bash", "-c", cmd}},
		{"several_words_command_appended", ShellString, "bash -lc", []string{"bash", "-lc", cmd}},
		{"env_form_command_appended", ShellString, "/usr/bin/env zsh -c", []string{"/usr/bin/env", "zsh", "-c", cmd}},
		{"single_quotes_keep_spaces", ShellString, "'/opt/my shell/sh' -c", []string{"/opt/my shell/sh", "-c", cmd}},
		{"backslash_escapes_space", ShellString, `/opt/my\ shell/sh -c`, []string{"/opt/my shell/sh", "-c", cmd}},
		// shlex's POSIX gaps, documented on Shell.Argv.
		{"gap_backslash_in_double_quotes_is_dropped", ShellString, `"a\b" -c`, []string{"ab", "-c", cmd}},
		{"gap_hash_starts_a_comment", ShellString, "bash #-lc", []string{"bash", "-c", cmd}},
		{"gap_no_tilde_or_variable_expansion", ShellString, "~/bin/sh $FLAG", []string{"~/bin/sh", "$FLAG", cmd}},
		{"gap_ansi_c_quotes_not_supported", ShellString, `$'\t' -c`, []string{`$\t`, "-c", cmd}},
		{"gap_operators_are_plain_words", ShellString, "sh;rm -c", []string{"sh;rm", "-c", cmd}},
		// Errors.
		{"empty_string_is_error", ShellString, "", nil},
		{"blank_string_is_error", ShellString, " \t\n", nil},
		{"only_comment_is_error", ShellString, "#bash", nil},
		{"unterminated_quote_is_error", ShellString, `bash "-c`, nil},
		{"trailing_backslash_is_error", ShellString, `bash \`, nil},
		{"unknown_kind_is_error", ShellKind("fish"), "fish", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sh := Shell{kind: tc.kind, program: tc.shell}
			got, err := sh.Argv(cmd)
			if tc.want == nil {
				if !errors.Is(err, ErrInvalidShell) {
					t.Fatalf("Shell{%q, %q}.Argv = %q, %v; want an error wrapping ErrInvalidShell", tc.kind, tc.shell, got, err)
				}
				return
			}
			if err != nil || !slices.Equal(got, tc.want) {
				t.Fatalf("Shell{%q, %q}.Argv = %q, %v; want %q", tc.kind, tc.shell, got, err, tc.want)
			}
		})
	}
}

func TestShellJSON(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Shell
		out  string
	}{
		{`null`, Shell{}, `null`},
		{`false`, Shell{}, `null`},
		{`true`, ShellOfTrue, `true`},
		{`"bash -lc"`, ShellProgram("bash -lc"), `"bash -lc"`},
		{`""`, ShellProgram(""), `""`},
	} {
		var s Shell
		if err := json.Unmarshal([]byte(tc.in), &s); err != nil || s != tc.want {
			t.Fatalf("Unmarshal(%s) = %+v, %v; want %+v", tc.in, s, err, tc.want)
		}
		if b, err := json.Marshal(s); err != nil || string(b) != tc.out {
			t.Fatalf("Marshal(%+v) = %s, %v; want %s", s, b, err, tc.out)
		}
	}
	var s Shell
	if err := json.Unmarshal([]byte(`7`), &s); !errors.Is(err, ErrInvalidShell) {
		t.Fatalf("Unmarshal(7) = %v; want ErrInvalidShell", err)
	}
	type wrap struct {
		S Shell `json:"shell,omitzero"`
	}
	if b, _ := json.Marshal(wrap{}); string(b) != `{}` {
		t.Fatalf("unset shell must be omitted with omitzero: %s", b)
	}
}

func TestProfile(t *testing.T) {
	for name, want := range map[string]*Dialect{"": Zcode, "zcode": Zcode, "spark": Spark, "claude": Claude} {
		if d, ok := Profile(name); !ok || d != want {
			t.Errorf("Profile(%q) = %v, %v", name, d, ok)
		}
	}
	for _, name := range []string{"plugin", "Spark", "Claude"} {
		if d, ok := Profile(name); ok || d != nil {
			t.Errorf("Profile(%q) = %v, %v; want none", name, d, ok)
		}
	}
	if !Spark.HasEvent(Stop) || Spark.HasEvent(SessionStart) || !Zcode.HasEvent(SessionStart) {
		t.Error("dialect events")
	}
	if Spark.MatcherApplies(Stop) || !Spark.MatcherApplies(PreToolUse) || !Zcode.MatcherApplies(Stop) {
		t.Error("matcher events")
	}
}

// TestDeclaredOf: the one declaration shape writes args as [] when absent
// and never a shell for a process hook, in this key order.
func TestDeclaredOf(t *testing.T) {
	m := "Bash"
	p := Hook{Event: PreToolUse, Matcher: &m, MatcherIndex: 1, HookIndex: 2, Type: TypeProcess, Command: "x",
		Shell: ShellOfTrue, TimeoutMs: 5, MaxOutputBytes: 6}
	b, err := json.Marshal(DeclaredOf(&p))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"event":"PreToolUse","matcher":"Bash","matcherIndex":1,"hookIndex":2,"type":"process","command":"x","args":[],"shell":null,"async":false,"timeoutMs":5,"maxOutputBytes":6}`
	if string(b) != want {
		t.Fatalf("got  %s\nwant %s", b, want)
	}
	c := Hook{Event: Stop, Type: TypeCommand, Command: "y", Shell: ShellProgram("bash -lc"), Async: true}
	if d := DeclaredOf(&c); d.Shell != c.Shell || d.Matcher != nil || d.Args == nil || !d.Async {
		t.Fatalf("command hook: %+v", d)
	}
}
