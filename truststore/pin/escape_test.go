package pin

import (
	"slices"
	"testing"
)

// escapeRoot is a workspace holding the scripts the rows of
// TestPinShellForms reach.
func escapeRoot(t *testing.T) string {
	t.Helper()
	return workspace(t, map[string]string{
		"hooks/a.sh":          "true\n",
		"hooks/dx.sh":         "true\n",
		"hooks/Up.sh":         "true\n",
		"hooks/deep/er/d.sh":  "true\n",
		"hooks/.hidden.sh":    "true\n",
		"lit/[q].sh":          "true\n",
		"hooks/opts.sh":       "shopt -s nocaseglob\n",
		"hooks/zopts.sh":      "setopt NO_CASE_GLOB\n",
		"hooks/srcglob.sh":    ". ./lib/*.sh\n",
		"lib/l.sh":            "true\n",
		"hooks/shopt_late.sh": "true\n",
	})
}

// TestPinShellForms: the shell forms a fresh user found running a script
// that was never pinned (SECURITY.md, "Shell forms"), and their kin. Each
// row's line must pin the files in want (and list the words in unpinned
// among Pins.Unfollowed); before the fix none of them did.
func TestPinShellForms(t *testing.T) {
	root := escapeRoot(t)
	a := []string{"hooks/a.sh"}
	tests := []struct {
		name, line string
		want       []string
		unpinned   []string
	}{
		// Command substitutions wherever the AST holds them.
		{"arith_cmd", "(( $(bash hooks/a.sh; echo 1) ))", a, nil},
		{"let", `let "x=$(bash hooks/a.sh)"`, a, nil},
		{"let_bare", `let x=$(bash hooks/a.sh)`, a, nil},
		{"for_cstyle", "for (( i=$(bash hooks/a.sh); i<1; i++ )); do :; done", a, nil},
		{"for_cstyle_cond", "for (( i=0; i<$(bash hooks/a.sh); i++ )); do :; done", a, nil},
		{"array_index_assign", "x[$(bash hooks/a.sh)]=1", a, nil},
		{"array_index_read", "echo ${x[$(bash hooks/a.sh)]}", a, nil},
		{"arith_exp", "echo $(( $(bash hooks/a.sh) + 1 ))", a, nil},
		{"arith_exp_old", "echo $[ $(bash hooks/a.sh) + 1 ]", a, nil},
		{"slice_offset", "echo ${x:$(bash hooks/a.sh)}", a, nil},
		{"slice_length", "echo ${x:0:$(bash hooks/a.sh)}", a, nil},
		{"test_clause", "[[ $(bash hooks/a.sh) == 1 ]]", a, nil},
		{"test_clause_arith", "[[ x -eq $(bash hooks/a.sh) ]]", a, nil},
		{"test_clause_pattern", "[[ x == @($(bash hooks/a.sh)) ]]", a, nil},
		{"case_pattern", "case x in $(bash hooks/a.sh)) ;; esac", a, nil},
		{"param_replace", "echo ${x/$(bash hooks/a.sh)/y}", a, nil},
		{"param_default", "echo ${x:-$(bash hooks/a.sh)}", a, nil},
		{"param_assign_default", ": ${x:=$(bash hooks/a.sh)}", a, nil},
		{"param_strip", "echo ${x%$(bash hooks/a.sh)}", a, nil},
		{"declare", "declare x=$(bash hooks/a.sh)", a, nil},
		{"local", "f() { local x=$(bash hooks/a.sh); }", a, nil},
		{"export", "export x=$(bash hooks/a.sh)", a, nil},
		{"readonly", "readonly x=$(bash hooks/a.sh)", a, nil},
		{"declare_array_index", "declare -a x=([$(bash hooks/a.sh)]=1)", a, nil},
		{"array_elem_index", "x=([$(bash hooks/a.sh)]=1)", a, nil},
		{"redirect_target", `echo hi > "$(bash hooks/a.sh)"`, a, nil},
		{"heredoc_unquoted", "cat <<EOF\n$(bash hooks/a.sh)\nEOF", a, nil},
		{"select", "select x in $(bash hooks/a.sh); do :; done", a, nil},
		{"coproc", "coproc bash hooks/a.sh", a, nil},
		{"coproc_named", "coproc c { bash hooks/a.sh; }", a, nil},
		{"source_proc_subst", "source <(bash hooks/a.sh)", a, nil},
		// A command substitution written inside quotes runs when the text
		// is evaluated later: arithmetic on a variable, ${x@P}, eval.
		{"deferred_arith", `x='a[$(bash hooks/a.sh)]'; (( x ))`, a, nil},
		{"deferred_prompt", `x='$(bash hooks/a.sh)'; echo "${x@P}"`, a, nil},
		{"deferred_backquote", "x='`bash hooks/a.sh`'; echo \"${x@P}\"", a, nil},
		{"deferred_ansi_c", `x=$'\x24(bash hooks/a.sh)'; (( x ))`, a, nil},
		// ANSI-C quoting: pinned as bash decodes it.
		{"ansi_c_hex", `bash hooks/$'\x64'x.sh`, []string{"hooks/dx.sh"}, nil},
		{"ansi_c_octal", `bash $'hooks/\144x.sh'`, []string{"hooks/dx.sh"}, nil},
		{"ansi_c_unicode", `bash hooks/$'\u0064'x.sh`, []string{"hooks/dx.sh"}, nil},
		{"ansi_c_tail", `bash $'hooks/d\x78.sh'`, []string{"hooks/dx.sh"}, nil},
		{"ansi_c_quote", `bash $'hooks/\'a'.sh`, []string{"hooks/'a.sh"}, nil},
		{"ansi_c_program", `$'\x62ash' -c 'bash hooks/a.sh'`, a, nil},
		{"ansi_c_control", `bash hooks/$'\cA'x.sh`, []string{"hooks/\x01x.sh"}, nil},
		{"ansi_c_nonascii", `bash hooks/$'\u00e9'.sh`, []string{"hooks"}, []string{`hooks/$'\u00e9'.sh`}},
		{"ansi_c_nul", `bash hooks/$'\0'x.sh`, []string{"hooks"}, []string{`hooks/$'\0'x.sh`}},
		{"locale_quote", `bash $"hooks/dx.sh"`, []string{"hooks/dx.sh"}, nil},
		// Code given as a string.
		{"eval", "eval 'bash hooks/a.sh'", a, nil},
		{"eval_joined", "eval 'x=1;' 'bash hooks/a.sh'", a, nil},
		{"eval_nested", `eval "eval 'bash hooks/a.sh'"`, a, nil},
		{"command_eval", "command eval 'bash hooks/a.sh'", a, nil},
		{"builtin_eval", "builtin eval 'bash hooks/a.sh'", a, nil},
		{"trap", "trap 'bash hooks/a.sh' EXIT", a, nil},
		{"trap_dashdash", "trap -- 'bash hooks/a.sh' EXIT INT", a, nil},
		{"su_c", "su -c 'bash hooks/a.sh' root", a, nil},
		{"su_user_c", "su root -c 'bash hooks/a.sh'", a, nil},
		{"su_command_eq", "su --command='bash hooks/a.sh' root", a, nil},
		{"runuser_c", "runuser -u nobody -- sh -c 'bash hooks/a.sh'", a, nil},
		{"flock_c", "flock /tmp/l -c 'bash hooks/a.sh'", a, nil},
		{"xargs_sh_c", "xargs sh -c 'bash hooks/a.sh'", a, nil},
		{"xargs_I_sh_c", "xargs -I {} sh -c 'bash hooks/a.sh {}'", a, nil},
		{"find_exec_sh_c", `find . -exec sh -c 'bash hooks/a.sh' \;`, a, nil},
		{"watch", "watch 'bash hooks/a.sh'", a, nil},
		{"watch_n", "watch -n 1 'bash hooks/a.sh'", a, nil},
		{"timeout_signal_sh_c", "timeout -s KILL 5 sh -c 'bash hooks/a.sh'", a, nil},
		{"env_u_bash_c", "env -u X bash -c 'bash hooks/a.sh'", a, nil},
		{"env_S", `env -S 'bash -c "bash hooks/a.sh"'`, a, nil},
		{"env_split_string", `env --split-string='bash hooks/a.sh'`, a, nil},
		{"exec_a", "exec -a name bash -c 'bash hooks/a.sh'", a, nil},
		{"sudo_u_sh_c", "sudo -u root sh -c 'bash hooks/a.sh'", a, nil},
		{"sh_c_option_after", "bash -c -e 'bash hooks/a.sh'", a, nil},
		{"sh_o_then_c", "bash -o pipefail -c 'bash hooks/a.sh'", a, nil},
		{"alias", "alias x='bash hooks/a.sh'", a, nil},
		{"here_string_shell", "bash <<< 'bash hooks/a.sh'", a, nil},
		{"here_string_source", "source /dev/stdin <<< 'bash hooks/a.sh'", a, nil},
		{"echo_pipe_shell", "echo 'bash hooks/a.sh' | bash", a, nil},
		{"printf_pipe_sh", `printf '%s\n' 'bash hooks/a.sh' | sh -s`, a, nil},
		{"var_eval", `X='bash hooks/a.sh'; eval "$X"`, a, []string{"$X"}},
		{"var_program_shell", "X=bash; $X -c 'bash hooks/a.sh'", a, nil},
		{"var_program_eval", "E=eval; $E 'bash hooks/a.sh'", a, nil},
		{"glob_program", "b*sh -c 'bash hooks/a.sh'", a, nil},
		{"eval_expansion_dir", `eval "bash hooks/$N.sh"`, []string{"hooks"}, []string{"bash hooks/$N.sh"}},
		{"eval_expansion_whole", `eval "$CMD"`, nil, []string{"$CMD"}},
		{"sh_c_expansion", `bash -c "$CMD"`, nil, []string{"$CMD"}},
		{"trap_expansion", `trap "$CMD" EXIT`, nil, []string{"$CMD"}},
		// Glob options: the pins cover what any of them may reach.
		{"nocaseglob", "shopt -s nocaseglob; bash hooks/up*", []string{"hooks/Up.sh"}, nil},
		{"nocaseglob_bash_O", "bash -O nocaseglob -c 'bash hooks/up*'", []string{"hooks/Up.sh"}, nil},
		{"nocaseglob_sourced", ". hooks/opts.sh; bash hooks/up*", []string{"hooks/Up.sh", "hooks/opts.sh"}, nil},
		{"nocaseglob_zsh", ". hooks/zopts.sh; bash hooks/up*", []string{"hooks/Up.sh", "hooks/zopts.sh"}, nil},
		{"nocaseglob_bracket", "shopt -s nocaseglob; bash hooks/[u]p.sh", []string{"hooks/Up.sh"}, nil},
		{"globstar", "shopt -s globstar; bash hooks/**/d.sh", []string{"hooks/deep/er/d.sh"}, nil},
		{"globstar_zsh_default", "bash hooks/**/*.sh", []string{"hooks/a.sh", "hooks/deep/er/d.sh"}, nil},
		{"extglob", "shopt -s extglob; bash hooks/@(a|b).sh", a, nil},
		{"extglob_negated", "shopt -s extglob; bash hooks/!(x).sh", a, nil},
		{"dotglob", "shopt -s dotglob; bash hooks/*.sh", []string{"hooks/.hidden.sh"}, nil},
		{"glob_literal_fallback", "bash lit/[q].sh", []string{"lit/[q].sh"}, nil},
		{"noglob_literal", "set -f; bash lit/[q].sh", []string{"lit/[q].sh"}, nil},
		{"sourced_glob", ". hooks/srcglob.sh", []string{"hooks/srcglob.sh", "lib/l.sh"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := mustPin(t, cmdHook(tc.line), root)
			checkPaths(t, tc.line, p.Paths(), tc.want, nil)
			for _, u := range tc.unpinned {
				if !slices.Contains(p.Unfollowed, u) {
					t.Errorf("Unfollowed of %q = %q, want %q among them", tc.line, p.Unfollowed, u)
				}
			}
		})
	}
}
