package config

import (
	"strings"
	"testing"

	"github.com/hookside/hookside/internal/hook"
)

func TestParseFileRejectsAtLoad(t *testing.T) {
	for _, tc := range []struct{ name, hook, want string }{
		{"unbalanced_shell_quote", `{"type":"command","command":"x","shell":"bash -c '"}`, "cannot be split"},
		{"nul_in_command", `{"type":"process","command":"a\u0000b"}`, "NUL"},
		{"unbraced_skill_dir", `{"type":"command","command":"cat $ZCODE_SKILL_DIR/x"}`, "ZCODE_SKILL_DIR"},
		{"braced_skill_dir_in_args", `{"type":"process","command":"cat","args":["${ZCODE_SKILL_DIR}/x"]}`, "ZCODE_SKILL_DIR"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := `{"hooks":{"enabled":true,"events":{"Stop":[{"hooks":[` + tc.hook + `]}]}}}`
			f, diags := ParseFile("/c.json", []byte(doc), hook.SourceUser)
			if len(f.Hooks) != 0 {
				t.Fatalf("the declaration was kept: %+v", f.Hooks)
			}
			if len(diags) != 1 || diags[0].Code != hook.CodeInvalidHook || !strings.Contains(diags[0].Message, tc.want) || !strings.HasPrefix(diags[0].Source, "/c.json:1:") {
				t.Fatalf("diagnostics %+v", diags)
			}
		})
	}
}
