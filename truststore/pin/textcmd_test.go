package pin

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/hookside/hookside/internal/hook"
)

// TestTextCommandOperands: an operand of echo, printf and the other text
// commands is pinned only when it names an existing file or has a path
// separator (then as absent when missing), so `echo 'Reminder: …'` pins
// nothing; an interpreter's bare operand is still pinned as absent.
func TestTextCommandOperands(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "notes.txt"), "n\n")
	for _, tc := range []struct {
		line string
		want []string
	}{
		{"echo 'Reminder: run the tests'", nil},
		{`printf '%s\n' "Reminder" >&2; exit 0`, nil},
		{"echo Reminder && true done", nil},
		{"grep -q Reminder notes.txt", nil}, // a data reader (dataReaders): its operands are read, not run
		{"echo notes.txt", []string{"notes.txt"}},
		{"echo hooks/missing.sh", []string{"hooks/missing.sh"}},
		{"test -x ./hooks/gone.sh", []string{"hooks/gone.sh"}},
		{"python3 guard.py", []string{"guard.py"}},
		{"perl -I lib guard.pl", []string{"guard.pl", "lib"}},
		{"cat Reminder", []string{"Reminder"}},
		// trap's and alias's operands are command lines that run: pinned
		// as any other command's operand.
		{"trap guard.sh EXIT", []string{"EXIT", "guard.sh"}},
		{"alias g=guard.sh", []string{"g=guard.sh", "guard.sh"}},
	} {
		h := hook.Hook{Type: hook.TypeCommand, Command: tc.line}
		if got := ScriptPaths(h, root); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ScriptPaths(%q) = %q, want %q", tc.line, got, tc.want)
		}
	}
}
