package truststore

import (
	"encoding/json"
	"errors"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/truststore/pin"
)

// TestEvaluateDirectoryPinEdited: a record pinning a directory (ScriptDirs)
// survives the trust file's round trip and goes stale (script_changed) when
// a file below the directory is edited.
func TestEvaluateDirectoryPinEdited(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "tool/__main__.py"), "print('ok')\n")
	h := wsHook(hook.PreToolUse, nil, 0, 0, "python3")
	h.Args = []string{"tool"}
	rec, err := newRecord("w", h, root)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(rec.ScriptDirs, []string{"tool"}) {
		t.Fatalf("ScriptDirs = %v, want [tool]", rec.ScriptDirs)
	}
	data, err := json.Marshal(map[string]any{"version": fileVersion, "records": []Record{rec}})
	if err != nil {
		t.Fatal(err)
	}
	recs, err := parse(data)
	if err != nil || len(recs) != 1 || !reflect.DeepEqual(recs[0].ScriptDirs, rec.ScriptDirs) {
		t.Fatalf("parse = %+v, %v", recs, err)
	}
	in := EvalInput{WorkspaceID: "w", Store: newState(StatusOK, recs), WorkspaceRoot: root,
		Declarations: []Declaration{Declare(h)}}
	if e := Evaluate(in)[0]; e.State != TrustedPersistent {
		t.Fatalf("before edit: %+v", e)
	}
	writeFile(t, filepath.Join(root, "tool/__main__.py"), "import os; os.system('evil')\n")
	if e := Evaluate(in)[0]; e.State != StaleDigest || e.Reason != ReasonScriptChanged {
		t.Fatalf("after edit: %+v", e)
	}
}

// TestDirectoryPinShapeChecked: a scriptDirs entry without its scriptPins
// sum makes the trust file corrupt.
func TestDirectoryPinShapeChecked(t *testing.T) {
	root := t.TempDir()
	h := wsHook(hook.PreToolUse, nil, 0, 0, "./hooks/x.sh")
	rec, err := newRecord("w", h, root)
	if err != nil {
		t.Fatal(err)
	}
	rec.ScriptDirs = []string{"elsewhere"}
	data, _ := json.Marshal(map[string]any{"version": fileVersion, "records": []Record{rec}})
	var ce *corruptError
	if _, err := parse(data); !errors.As(err, &ce) {
		t.Fatalf("parse = %v, want a corrupt-file error", err)
	}
}

// TestGrantRefusedForUnpinnableDirectory: a declaration naming a directory
// over pin.MaxDirFiles entries cannot be given a record.
func TestGrantRefusedForUnpinnableDirectory(t *testing.T) {
	root := t.TempDir()
	for i := 0; i <= pin.MaxDirFiles; i++ {
		writeFile(t, filepath.Join(root, "big", string(rune('a'+i%26))+string(rune('a'+i/26))), "x")
	}
	h := wsHook(hook.PreToolUse, nil, 0, 0, "ls")
	h.Args = []string{"big"}
	if _, err := newRecord("w", h, root); !errors.Is(err, pin.ErrUnpinnable) {
		t.Fatalf("newRecord = %v, want ErrUnpinnable", err)
	}
}
