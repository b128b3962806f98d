package truststore

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/truststore/pin"
)

// identityPrefixes are the workspace identity forms `--workspace` accepts
// besides a path (hooks-trust-command.ts:127 in the spec).
var identityPrefixes = []string{"local:", "remote:", "ssh:", "container:", "wsl:"}

// Target is a workspace named on the command line or over JSON-RPC.
type Target struct {
	// ID is the trust identity (records are keyed by it).
	ID string
	// Dir is the local directory to discover declarations in ("" for a
	// remote identity: only its records can be listed).
	Dir string
}

// ResolveTarget turns a path or an identity (local:, remote:, ssh:,
// container:, wsl:) into a Target. A path (or local:PATH) must be an
// existing directory; its identity is the canonical absolute path (symlinks
// resolved), the same default a session uses.
func ResolveTarget(arg string) (Target, error) {
	for _, p := range identityPrefixes {
		if strings.HasPrefix(arg, p) {
			if p != "local:" {
				return Target{ID: arg}, nil
			}
			t, err := ResolveTarget(strings.TrimPrefix(arg, p))
			return t, err
		}
	}
	abs, err := filepath.Abs(arg)
	if err != nil {
		return Target{}, err
	}
	fi, err := os.Stat(abs)
	if err != nil {
		// The path is in the message already: only the reason.
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		if errors.Is(err, fs.ErrNotExist) {
			return Target{}, fmt.Errorf("workspace %s: no such directory", arg)
		}
		return Target{}, fmt.Errorf("workspace %s: %w", arg, err)
	}
	if !fi.IsDir() {
		return Target{}, fmt.Errorf("workspace %s: not a directory", arg)
	}
	return Target{ID: CanonicalID(abs), Dir: abs}, nil
}

// CanonicalID returns the default workspace identity of a directory: its
// absolute path with symlinks resolved.
func CanonicalID(dir string) string {
	if r, err := filepath.EvalSymlinks(dir); err == nil {
		return r
	}
	return filepath.Clean(dir)
}

// NoteOtherSite begins GrantChanges.Note when no grant was made at this
// session's site: the changes compare with another site's pins (what a
// session there resolves), not with an earlier review of this one.
const NoteOtherSite = "not reviewed at this site"

// DeclarationStatus is one declaration as PROTOCOL.md §4 reports it.
type DeclarationStatus struct {
	Digest string            `json:"digest"`
	HookID string            `json:"hookId"`
	Source DeclarationSource `json:"source"`
	hook.Declared
	Enabled bool `json:"enabled"`
	// OffReason, when Enabled is false, names the switch that keeps the
	// declaration off: "disabled" (its own enabled: false), "file_disabled"
	// (its file's hooks.enabled: false) or "root_switch_off" (the user
	// config's root switch). Filled by the runner; "" otherwise. The CLI
	// (hooks trust status|review) also gives an enabled declaration that
	// a Claude Code settings switch keeps from running (disableAllHooks,
	// allowManagedHooksOnly) "hooks_disabled", with OffDetail saying which
	// switch in which file, as `hooks list` does; workspaceHooks/status
	// carries neither (a host has session/open's diagnostics).
	OffReason  string     `json:"offReason,omitempty"`
	OffDetail  string     `json:"offDetail,omitempty"`
	TrustState TrustState `json:"trustState"`
	Reason     string     `json:"reason,omitempty"`
	// Scripts are the pinned paths; Pins the pins a grant made now would
	// record (with hashes); PinError why the declaration cannot be pinned
	// (and so cannot be granted) right now.
	Scripts  []string       `json:"scripts,omitempty"`
	Pins     []pin.PinEntry `json:"pins,omitempty"`
	PinError string         `json:"pinError,omitempty"`
	// Unpinned are the command-line words pinning could not follow (a
	// variable, $(…), ~: pin.Pins.Unfollowed), for the reviewer to judge.
	Unpinned []string `json:"unpinned,omitempty"`
	// Changes is what changed since the grant this declaration was trusted
	// by, when that grant went stale (stale_digest, or blocked_policy with
	// reason script_changed); absent otherwise.
	Changes *GrantChanges `json:"changes,omitempty"`
	// Sites lists the pin sets the trust file's record of this digest
	// holds, one per site a grant was made at, newest first — only when
	// there are several (with one, Pins and Changes say it all).
	Sites []GrantedSite `json:"sites,omitempty"`
}

// GrantedSite is one site's pin set of a record, as a reviewer sees it.
type GrantedSite struct {
	// Site is where the grant was made; nil (JSON null): not recorded, a
	// grant written by an older version.
	Site      *SiteKey       `json:"site"`
	GrantedAt time.Time      `json:"grantedAt"`
	Pins      []pin.PinEntry `json:"pins"`
	// Here: the set was granted at this session's site. Current: the pins
	// resolved at this session's site now equal it, so it admits the
	// declaration here (with a readable trust file and a permitting policy).
	Here    bool `json:"here"`
	Current bool `json:"current"`
}

// DeclarationSource locates a declaration.
type DeclarationSource struct {
	RelativePath   string `json:"relativePath"`
	DiscoveryOrder int    `json:"discoveryOrder"`
}

// Shown is a workspace as the user reviews it: the pins a grant would
// record for each declaration, computed once, and the bundle digest over
// the source files, the declarations and those pins. Granting from a Shown
// grants exactly what was shown (GrantShown).
type Shown struct {
	BundleDigest string
	Pins         []pin.Pins // per declaration, same index as Workspace.Declarations
	Errs         []error    // per declaration: why it could not be pinned (nil = pinned)
	// Sites are the keys of the site each declaration was pinned at (a
	// grant records its pins under it), same index.
	Sites    []*SiteKey
	byDigest map[string]int
}

// Show pins every declaration of w (relative to w.Root, at w.Site: the
// session directory w.Cwd when Site.Dir is empty) and computes the bundle
// digest. A declaration that cannot be
// pinned (e.g. a script it names is unreadable) has an error and no pins;
// the bundle digest then covers its declaration only, and it cannot be
// granted.
func Show(w *Workspace) *Shown {
	sh := &Shown{Pins: make([]pin.Pins, len(w.Declarations)), Errs: make([]error, len(w.Declarations)),
		Sites: make([]*SiteKey, len(w.Declarations)), byDigest: make(map[string]int, len(w.Declarations))}
	hooks := make([]hook.Hook, len(w.Declarations))
	for i, d := range w.Declarations {
		hooks[i] = d.Hook
		sh.Pins[i], sh.Errs[i] = PinNowAt(d.Hook, w.Root, w.site())
		sh.Sites[i] = SiteKeyOf(w.Root, PinRoot(d.Hook, w.Root), w.site())
		if _, ok := sh.byDigest[d.Digest]; !ok {
			sh.byDigest[d.Digest] = i
		}
	}
	sh.BundleDigest = bundleDigestPinned(w.Files, hooks, sh.Pins)
	return sh
}

// PinNow pins the scripts h's command line names as they are now,
// relative to its pin root (PinRoot of workspaceRoot), session directory
// cwd: what Show pinned, for comparing at grant time.
func PinNow(h hook.Hook, workspaceRoot, cwd string) (pin.Pins, error) {
	return pin.PinScriptsIn(h, PinRoot(h, workspaceRoot), cwd)
}

// PinNowAt is PinNow at a Site: what Show pins for a Workspace with that
// Site, and what the gate compares a grant with (PinsMatch).
func PinNowAt(h hook.Hook, workspaceRoot string, at pin.Site) (pin.Pins, error) {
	return pin.PinScriptsAt(h, PinRoot(h, workspaceRoot), at)
}

// site returns w.Site, with Dir defaulting to w.Cwd.
func (w *Workspace) site() pin.Site {
	at := w.Site
	if at.Dir == "" {
		at.Dir = w.Cwd
	}
	return at
}

// PinSite returns the Site w's pins are resolved at (Site, with Dir
// defaulting to Cwd): for re-pinning at grant time as Show did.
func (w *Workspace) PinSite() pin.Site { return w.site() }

// ErrNotShown is returned by PinsOf for a digest the review did not show.
var ErrNotShown = errors.New("declaration was not shown")

// PinsOf returns the shown pins of the declaration with digest d. Errors:
// ErrNotShown, or the error pinning its scripts gave when shown.
func (sh *Shown) PinsOf(d string) (pin.Pins, error) {
	i, ok := sh.byDigest[d]
	if !ok {
		return pin.Pins{}, fmt.Errorf("%s: %w", d, ErrNotShown)
	}
	return sh.Pins[i], sh.Errs[i]
}

// ErrChangedSinceShown: a script a declaration runs pins differently now
// than when it was shown (changed, appeared or disappeared): granting the
// shown pins would trust what nobody reviewed, or leave the grant stale at
// once (lifecycle-hooks-and-workspace-trust §"按什么摘要信任").
var ErrChangedSinceShown = errors.New("script_changed_since_review: a script this declaration runs changed (or appeared, or disappeared) after it was shown")

// StillAsShown re-pins declaration d's scripts in workspace root at site
// at and reports whether they are the pins sh showed: nil when they are,
// ErrChangedSinceShown when not, or why they cannot be pinned (now or when
// shown). The check before a grant of what a review showed.
func (sh *Shown) StillAsShown(d Declaration, root string, at pin.Site) error {
	shown, err := sh.PinsOf(d.Digest)
	if err != nil {
		return fmt.Errorf("scripts could not be pinned: %w", err)
	}
	now, err := PinNowAt(d.Hook, root, at)
	if err != nil {
		return fmt.Errorf("scripts could not be pinned: %w", err)
	}
	if !now.Equal(shown) {
		return ErrChangedSinceShown
	}
	return nil
}

// siteOf returns the key of the site the declaration with digest d was
// shown at (nil when unknown).
func (sh *Shown) siteOf(d string) *SiteKey {
	if i, ok := sh.byDigest[d]; ok && i < len(sh.Sites) {
		return sh.Sites[i]
	}
	return nil
}

// Describe pairs declarations with their evaluations and shown pins for
// reporting (sh nil: Show(w)).
func Describe(w *Workspace, evs []Evaluation, sh *Shown) []DeclarationStatus {
	if sh == nil {
		sh = Show(w)
	}
	out := make([]DeclarationStatus, len(w.Declarations))
	for i, d := range w.Declarations {
		h := d.Hook
		out[i] = DeclarationStatus{
			Digest: d.Digest, HookID: h.ID,
			Source:   DeclarationSource{RelativePath: h.Source.RelativePath, DiscoveryOrder: h.Source.DiscoveryOrder},
			Declared: hook.DeclaredOf(&h), Enabled: w.Enabled[i],
		}
		if i < len(sh.Pins) {
			if sh.Errs[i] != nil {
				out[i].PinError = sh.Errs[i].Error()
			} else if p := sh.Pins[i]; !p.Empty() {
				out[i].Scripts = p.Paths()
				out[i].Pins = p.Entries()
			}
			if sh.Errs[i] == nil {
				out[i].Unpinned = sh.Pins[i].Unfollowed
			}
		}
		if i < len(evs) {
			out[i].TrustState, out[i].Reason = evs[i].State, evs[i].Reason
			var now pin.Pins
			var nowErr error = ErrNotShown
			if i < len(sh.Pins) {
				now, nowErr = sh.Pins[i], sh.Errs[i]
			}
			var here *SiteKey
			if i < len(sh.Sites) {
				here = sh.Sites[i] // the site sh pinned now at
			} else {
				here = SiteKeyOf(w.Root, PinRoot(h, w.Root), w.site())
			}
			if evs[i].Granted != nil {
				c := grantChanges(evs[i].Granted, here, h, now, nowErr)
				if c.GrantedSite != nil && c.GrantedSite.id() != here.id() && c.Note == "" {
					c.Note = NoteOtherSite + " (" + here.String() + "): this session resolves files no review covered"
				}
				out[i].Changes = c
			}
			if r := evs[i].Record; r != nil && len(r.OtherSites) > 0 {
				out[i].Sites = grantedSites(r, here, now, nowErr)
			}
		}
	}
	return out
}

// grantedSites lists r's pin sets for a reviewer (DeclarationStatus.Sites),
// marking the one granted at here and those equal to now (the pins
// resolved at this session's site; nowErr: they could not be).
func grantedSites(r *Record, here *SiteKey, now pin.Pins, nowErr error) []GrantedSite {
	sites := r.Sites()
	out := make([]GrantedSite, len(sites))
	for j := range sites {
		p := sites[j].Pins()
		out[j] = GrantedSite{Site: sites[j].Site, GrantedAt: sites[j].GrantedAt, Pins: p.Entries(),
			Here: sites[j].Site != nil && sites[j].Site.id() == here.id(), Current: nowErr == nil && p.Equal(now)}
	}
	return out
}

// GrantAll writes a trust record for each declaration, pinning its scripts
// now relative to the workspace root (recorded as the root's site). Errors: ErrCorrupt (refused: the
// corrupt file was moved aside), ErrLockTimeout, I/O errors.
func GrantAll(s Writer, workspaceID, root string, decls []Declaration) error {
	recs := make([]Record, 0, len(decls))
	for _, d := range decls {
		r, err := newRecord(workspaceID, d.Hook, root)
		if err != nil {
			return fmt.Errorf("pin scripts of %s: %w", d.Digest, err)
		}
		recs = append(recs, r)
	}
	return s.Grant(workspaceID, recs)
}

// GrantShown writes a trust record for each declaration with the pins sh
// showed for it (never re-hashing: what is granted is what was shown). A
// declaration sh does not know or could not pin is an error; nothing is
// written then.
func GrantShown(s Writer, workspaceID string, sh *Shown, decls []Declaration) error {
	recs := make([]Record, 0, len(decls))
	for _, d := range decls {
		p, err := sh.PinsOf(d.Digest)
		if errors.Is(err, ErrNotShown) {
			return fmt.Errorf("declaration %s was not shown", d.Digest)
		}
		if err != nil {
			return fmt.Errorf("pin scripts of %s: %w", d.Digest, err)
		}
		recs = append(recs, newPinnedRecord(workspaceID, d.Hook, p, sh.siteOf(d.Digest)))
	}
	return s.Grant(workspaceID, recs)
}
