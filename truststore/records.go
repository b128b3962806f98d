package truststore

import (
	"github.com/hookside/hookside/internal/fsid"
	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/truststore/pin"
)

// newRecord returns the record that trusts h in workspaceID, with its
// snapshot and, when workspaceRoot is not empty, its script pins (session
// directory = the root) at the root's site. GrantedAt is left zero;
// Store.Grant stamps it.
func newRecord(workspaceID string, h hook.Hook, workspaceRoot string) (Record, error) {
	var pins pin.Pins
	if workspaceRoot != "" {
		var err error
		if pins, err = pin.PinScripts(h, PinRoot(h, workspaceRoot)); err != nil {
			return Record{}, err
		}
	}
	return newPinnedRecord(workspaceID, h, pins, SiteKeyOf(workspaceRoot, PinRoot(h, workspaceRoot), pin.Site{})), nil
}

// PinRoot is the directory a workspace declaration's script pins are
// relative to: the workspace root, except for the hook of a workspace
// plugin whose directory lies outside the root (a zcode plugins.dirs
// entry elsewhere, a claude plugin that only the workspace switches on),
// whose pins are relative to the plugin's directory, so that an edit of
// the plugin's scripts takes the trust away as a workspace script's does.
func PinRoot(h hook.Hook, workspaceRoot string) string {
	pr := h.Source.PluginRoot
	if h.Source.Kind != hook.SourceWorkspace || pr == "" || workspaceRoot == "" {
		return workspaceRoot
	}
	if _, under := fsid.Within(workspaceRoot, pr); under {
		return workspaceRoot
	}
	return pr
}

// newPinnedRecord returns the record that trusts h with the given pins,
// resolved at the site key (nil: not recorded).
func newPinnedRecord(workspaceID string, h hook.Hook, pins pin.Pins, key *SiteKey) Record {
	return Record{WorkspaceID: workspaceID, Digest: Digest(h), Snapshot: snapshotOf(h),
		ScriptPins: pins.Scripts, ScriptLinks: pins.Links, ScriptGlobs: pins.Globs, ScriptDirs: pins.DirList(), Site: key}
}
