package v2bridge

import (
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"testing"

	"github.com/hookside/hookside/internal/home"
)

// TestOpenNoCreate: with NoCreate a missing home stays missing while the
// bridge answers as an empty database (lists empty, gets ErrNotFound,
// validation as usual); an existing database is read as it is.
func TestOpenNoCreate(t *testing.T) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	missing := filepath.Join(t.TempDir(), "home")
	b, err := Open(Options{Home: missing, Logger: log, NoCreate: true})
	if err != nil {
		t.Fatal(err)
	}
	if defs, err := b.ListDefinitions(bg, ""); err != nil || len(defs.Definitions) != 0 {
		t.Errorf("ListDefinitions = %+v, %v", defs, err)
	}
	if runs, err := b.ListRuns(bg, RunsListParams{}); err != nil || len(runs.Runs) != 0 || runs.NextCursor != nil {
		t.Errorf("ListRuns = %+v, %v", runs, err)
	}
	if _, err := b.GetBinding(bg, "bind_1"); !errors.Is(err, ErrNotFound) {
		t.Errorf("GetBinding: %v, want ErrNotFound", err)
	}
	var ie *InvalidError
	if _, err := b.ListDefinitions(bg, "no.such"); !errors.As(err, &ie) {
		t.Errorf("ListDefinitions(unknown event): %v, want *InvalidError", err)
	}
	b.Close(0)
	if _, err := os.Stat(missing); !os.IsNotExist(err) {
		t.Fatalf("home after a NoCreate bridge: %v", err)
	}

	// An existing database is opened, not replaced by an empty one.
	dir := t.TempDir()
	w, err := Open(Options{Home: dir, Logger: log, NoPipeline: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.CreateDefinition(bg, []byte(`{"id":"note","name":"N","eventName":"turn.completed","action":{"type":"command","hook":{"type":"command","command":"true"}}}`)); err != nil {
		t.Fatal(err)
	}
	w.Close(0)
	r, err := Open(Options{Home: dir, Logger: log, NoCreate: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close(0)
	if d, err := r.GetDefinition(bg, "note"); err != nil || d.Definition.ID != "note" {
		t.Errorf("GetDefinition on the existing %s: %+v, %v", home.DBPath(dir), d, err)
	}
}
