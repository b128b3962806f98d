package rpc

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/truststore"
	"github.com/hookside/hookside/truststore/pin"
)

// TestSchemaDeclarationSites: a declaration granted at two sites (the
// root, then sub/) whose sub-only script was edited since, as
// workspaceHooks/status reports it in the sub session — `sites` and
// `changes.grantedSite` — matches the schema's Declaration.
func TestSchemaDeclarationSites(t *testing.T) {
	sch := loadSchema(t)
	root := t.TempDir()
	sub := filepath.Join(root, "sub")
	writeFile(t, filepath.Join(root, "hooks/g.sh"), "#!/bin/sh\ntrue\n", 0o755)
	writeFile(t, filepath.Join(sub, "hooks/g.sh"), "#!/bin/sh\necho sub\n", 0o755)
	dir := filepath.Join(t.TempDir(), "security")
	h := hook.Hook{Event: "PreToolUse", Source: hook.Source{Kind: hook.SourceWorkspace, RelativePath: "zcode.json"},
		Type: hook.TypeCommand, Command: "./hooks/g.sh", TimeoutMs: hook.DefaultTimeoutMs, MaxOutputBytes: hook.DefaultMaxOutputBytes}
	var subWS *truststore.Workspace
	var subGate *truststore.Gate
	for _, d := range []string{root, sub} {
		at := pin.Site{Dir: d, ProjectDir: d}
		g := truststore.NewGate(truststore.GateOptions{WorkspaceID: "w", Root: root, Site: at, Feature: true, Dir: dir})
		w := truststore.NewWorkspaceAt(root, at, nil, []hook.Hook{h}, []bool{true})
		if err := truststore.GrantShown(g, "w", truststore.Show(w), w.Declarations); err != nil {
			t.Fatal(err)
		}
		subWS, subGate = w, g
	}
	if err := os.WriteFile(filepath.Join(sub, "hooks/g.sh"), []byte("#!/bin/sh\necho edited\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	ds := truststore.Describe(subWS, subGate.Evaluate(subWS.Declarations), nil)
	if len(ds[0].Sites) != 2 || ds[0].Changes == nil || ds[0].Changes.GrantedSite == nil {
		t.Fatalf("declaration %+v, want two sites and changes with grantedSite", ds[0])
	}
	raw, err := json.Marshal(ds[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.check("declaration", "Declaration", "", raw); err != nil {
		t.Fatal(err)
	}
}
