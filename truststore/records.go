package truststore

import (
	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/truststore/pin"
)

// newRecord returns the record that trusts h in workspaceID, with its
// snapshot and, when workspaceRoot is not empty, its script pins (session
// directory = the root). GrantedAt is left zero; Store.Grant stamps it.
func newRecord(workspaceID string, h hook.Hook, workspaceRoot string) (Record, error) {
	var pins pin.Pins
	if workspaceRoot != "" {
		var err error
		if pins, err = pin.PinScripts(h, workspaceRoot); err != nil {
			return Record{}, err
		}
	}
	return newPinnedRecord(workspaceID, h, pins), nil
}

// newPinnedRecord returns the record that trusts h with the given pins.
func newPinnedRecord(workspaceID string, h hook.Hook, pins pin.Pins) Record {
	return Record{WorkspaceID: workspaceID, Digest: Digest(h), Snapshot: snapshotOf(h),
		ScriptPins: pins.Scripts, ScriptLinks: pins.Links, ScriptGlobs: pins.Globs}
}
