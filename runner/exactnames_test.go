package runner

import (
	"os"
	"path/filepath"
	"testing"
)

// TestMemberNamesAreExact: the hook input and the Claude settings
// switches are read by exact member names (docs/protocol.md §1), as
// Claude Code's JSON.parse reads them: "TOOL_NAME" is not tool_name, a
// workspace's "DisableAllHooks" switches nothing off.
func TestMemberNamesAreExact(t *testing.T) {
	in, err := decodeInput([]byte(`{"tool_name":"Read","TOOL_NAME":"Bash","ToolName":"Bash","Stop_Hook_Active":true}`))
	if err != nil {
		t.Fatal(err)
	}
	if string(in.f.ToolNameSnake) != `"Read"` || in.f.ToolName != nil || in.f.StopHookActiveSnake != nil {
		t.Errorf("input fields %+v", in.f)
	}

	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	managed := write("managed.json", `{"AllowManagedHooksOnly":true,"DisableAllHooks":true}`)
	user := write("user.json", `{"disableAllHooks":true}`)
	project := write("project.json", `{"DisableAllHooks":false,"disableallhooks":false,"AllowedHttpHookUrls":["https://x"]}`)
	sw := readClaudeSwitches(nil, managed, user, project, "")
	if sw.ManagedOnly || sw.ManagedDisable || !sw.DisableAll || sw.DisabledIn != user || sw.AllowedURLs != nil || len(sw.Diags) != 0 {
		t.Errorf("switches %+v", sw)
	}
	project = write("project.json", `{"DisableAllHooks":true,"disableAllHooks":"yes-typo"}`)
	sw = readClaudeSwitches(nil, "", "", project, "")
	if sw.DisableAll || len(sw.Diags) != 1 {
		t.Errorf("the exactly named member, of the wrong type, is the one reported: %+v", sw)
	}
	project = write("project.json", `{"DISABLEALLHOOKS":"x"}`)
	sw = readClaudeSwitches(nil, "", "", project, "")
	if sw.DisableAll || len(sw.Diags) != 0 {
		t.Errorf("an other-case member is not type-checked: %+v", sw)
	}
}
