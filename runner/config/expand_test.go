package config

import (
	"errors"
	"testing"
)

func TestExpand(t *testing.T) {
	vars := map[string]string{
		"ZCODE_PROJECT_DIR":  "/proj",
		"CLAUDE_PLUGIN_ROOT": "/plug",
		"ZCODE_SESSION_ID":   "s1",
		"HOME":               "/home/u", // not an expandable name
		"CLAUDE_PLUGIN_DATA": "${ZCODE_PROJECT_DIR}",
	}
	for _, tc := range []struct{ name, in, want string }{
		{"known_names_expanded", "${ZCODE_PROJECT_DIR}/x ${ZCODE_SESSION_ID}", "/proj/x s1"},
		{"plugin_root_expanded", "${CLAUDE_PLUGIN_ROOT}/hooks/run.sh", "/plug/hooks/run.sh"},
		{"no_reference_unchanged", "echo hi", "echo hi"},
		{"unknown_name_left_for_the_shell", "${HOME}/x ${PATH}", "${HOME}/x ${PATH}"},
		{"known_name_missing_from_vars_left", "${CLAUDE_SESSION_ID}", "${CLAUDE_SESSION_ID}"},
		{"bare_dollar_left", "$ZCODE_PROJECT_DIR/x", "$ZCODE_PROJECT_DIR/x"},
		{"unclosed_left", "a ${ZCODE_PROJECT_DIR", "a ${ZCODE_PROJECT_DIR"},
		{"single_pass", "${CLAUDE_PLUGIN_DATA}", "${ZCODE_PROJECT_DIR}"},
		{"nested_inner_found", "${X${ZCODE_PROJECT_DIR}}", "${X/proj}"},
		{"adjacent", "${ZCODE_SESSION_ID}${ZCODE_SESSION_ID}", "s1s1"},
		{"empty", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Expand(tc.in, vars)
			if err != nil || got != tc.want {
				t.Fatalf("Expand(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
			}
		})
	}
	t.Run("skill_dir_is_an_error", func(t *testing.T) {
		for _, in := range []string{"${ZCODE_SKILL_DIR}", "cd ${HOME} && ${ZCODE_SKILL_DIR}/x"} {
			if got, err := Expand(in, map[string]string{"ZCODE_SKILL_DIR": "/s"}); !errors.Is(err, ErrSkillDir) || got != "" {
				t.Errorf("Expand(%q) = %q, %v", in, got, err)
			}
		}
	})
	t.Run("no_reference_does_not_allocate", func(t *testing.T) {
		if n := testing.AllocsPerRun(100, func() { _, _ = Expand("node ./scripts/pre.mjs", vars) }); n != 0 {
			t.Fatalf("%v allocs", n)
		}
	})
}
