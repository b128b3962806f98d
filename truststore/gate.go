package truststore

import (
	"cmp"
	"errors"
	"fmt"
	"path/filepath"
	"sync"

	"github.com/hookside/hookside/internal/fsid"
	"github.com/hookside/hookside/truststore/pin"
)

// ReasonFeatureDisabled is the reason given to every workspace declaration
// when the host's feature switch (session/open.workspaceHooks) is off; the
// trust file is then not even read (app/workspace-hook-trust.ts:100 in the spec).
const ReasonFeatureDisabled = "workspace_hooks_feature_disabled"

// GateOptions configure a Gate.
type GateOptions struct {
	WorkspaceID string
	Root        string // workspace root, for script pins
	// Site is where the session's hooks run (its directory, project
	// directory and PATH): a grant holds only while the pins resolved
	// there are covered by one of the grant's sets (PinsMatch). Zero: the root.
	Site   pin.Site
	Policy Policy
	// Feature is the host's switch; false blocks everything without I/O.
	Feature bool
	// Dir is the security directory holding the trust file.
	Dir   string
	Store Options
}

// Gate is one session's admission gate: it evaluates workspace
// declarations against the trust file, re-reading the file when it changed
// on disk (another process granted or revoked), and keeps the session's
// in-memory revocations. A security version counts every change (revoke,
// policy change, trust file reload) so callers can tell an answer is stale
// (workspace-hook-runtime-admission.ts:148 in the spec). Safe for
// concurrent use.
type Gate struct {
	opts   GateOptions
	store  *Store
	hashes *pin.HashCache

	mu      sync.Mutex
	state   *State
	corrupt bool // seen corrupt this session: stays blocked_untrusted until a valid file appears
	// revoked: the spec's in-memory mark, below a persistent record
	// (revoke with persist); hidden: a session-only revoke that hides the
	// record from this session (revoke without persist). Both copy-on-write.
	revoked map[string]bool
	hidden  map[string]bool
	version uint64
	// corruptErr is why the trust file read corrupt this session (kept
	// while corrupt is set: the file is usually gone by the next read).
	corruptErr error
}

// NewGate returns a gate. It reads nothing until first asked.
func NewGate(opts GateOptions) *Gate {
	g := &Gate{opts: opts, revoked: map[string]bool{}, hidden: map[string]bool{}, hashes: pin.NewHashCache()}
	if opts.Feature {
		g.store = Open(opts.Dir, opts.Store)
	}
	return g
}

// Store returns the gate's trust store (nil when the feature is off).
func (g *Gate) Store() *Store { return g.store }

// Policy returns the gate's current policy.
func (g *Gate) Policy() Policy {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.opts.Policy
}

// refresh reloads the trust file when it changed. Caller holds mu.
func (g *Gate) refresh() {
	if g.store == nil {
		return
	}
	if g.state != nil && !g.store.Changed() {
		return
	}
	st, err := g.store.Load()
	switch {
	case st.Status == StatusCorrupt:
		g.corrupt, g.corruptErr = true, err
	case st.Status == StatusOK:
		g.corrupt, g.corruptErr = false, nil
	}
	if g.corrupt {
		st = newState(StatusCorrupt, nil)
	}
	g.state = st
	g.version++
}

// StoreStatus returns the trust file's status as the gate sees it
// ("missing" when the feature is off: the file is not read).
func (g *Gate) StoreStatus() Status {
	if g.store == nil {
		return StatusMissing
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.refresh()
	return g.state.Status
}

// StoreError returns why the trust file reads as corrupt this session —
// a *CorruptError naming the file, the reason and its .corrupt-<timestamp>
// name (or that it was left in place), or the read error — and nil while
// the status is not StatusCorrupt.
func (g *Gate) StoreError() error {
	if g.store == nil {
		return nil
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.refresh()
	if g.state.Status != StatusCorrupt {
		return nil
	}
	return g.corruptErr
}

// Version returns the security version (changes on revoke, policy change
// and trust file reload).
func (g *Gate) Version() uint64 {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.refresh()
	return g.version
}

// Evaluate returns the trust state of every declaration.
func (g *Gate) Evaluate(decls []Declaration) []Evaluation {
	out := make([]Evaluation, len(decls))
	if !g.opts.Feature {
		for i, d := range decls {
			out[i] = featureOff(d.Digest)
		}
		return out
	}
	in := g.input()
	for i := range decls {
		out[i] = g.verdict(&in, &decls[i])
	}
	return out
}

// Admit is asked right before a workspace hook starts (runner.ts:87 in the
// spec): the declaration's current trust state. It is the hot path: one
// lstat of the trust file (so a grant or revoke by another process is seen
// by the very next check), map lookups, and no allocation when nothing
// changed (BenchmarkAdmitUnchanged).
func (g *Gate) Admit(d Declaration) Evaluation {
	if !g.opts.Feature {
		return featureOff(d.Digest)
	}
	in := g.input()
	return g.verdict(&in, &d)
}

// AdmitAt is Admit for a hook that starts in the directory dir instead of
// the session's (a host that reports the directory of each run, e.g. the
// claude profile's input cwd): the pins are resolved with Site.Dir = dir,
// the project directory staying the session's. dir "" is Admit. A
// declaration trusted in the workspace is not admitted where dir
// (absolute, or relative to the process's directory) lies outside the
// workspace root: StaleDigest with ReasonCwdOutside (docs/protocol.md §4
// "Pins are resolved per session"), as its relative words name files no
// review covered and no grant can pin.
func (g *Gate) AdmitAt(d Declaration, dir string) Evaluation {
	if !g.opts.Feature {
		return featureOff(d.Digest)
	}
	in := g.inputAt(dir)
	return g.verdictAt(&in, &d, dir)
}

// EvaluateAt is Evaluate for hooks that start in the directory dir (""
// = the session's): each declaration's state as AdmitAt gives it, the
// trust file read once. A review at a run directory reports these.
func (g *Gate) EvaluateAt(decls []Declaration, dir string) []Evaluation {
	if dir == "" || !g.opts.Feature {
		return g.Evaluate(decls)
	}
	out := make([]Evaluation, len(decls))
	in := g.inputAt(dir)
	for i := range decls {
		out[i] = g.verdictAt(&in, &decls[i], dir)
	}
	return out
}

// SiteAt is the Site a hook starting in dir is admitted at (AdmitAt): the
// session's, with Dir = dir and the project directory staying the
// session's; dir "" is the session's Site.
func (g *Gate) SiteAt(dir string) pin.Site {
	at := g.opts.Site
	if dir != "" {
		if at.ProjectDir == "" {
			at.ProjectDir = cmp.Or(at.Dir, g.opts.Root)
		}
		at.Dir = dir
	}
	return at
}

// inputAt is input with the Site of a hook starting in dir (SiteAt).
func (g *Gate) inputAt(dir string) EvalInput {
	in := g.input()
	if dir != "" {
		in.Site = g.SiteAt(dir)
	}
	return in
}

// verdictAt is verdict for a hook starting in dir: not runnable where dir
// lies outside the workspace root (ReasonCwdOutside).
func (g *Gate) verdictAt(in *EvalInput, d *Declaration, dir string) Evaluation {
	ev := g.verdict(in, d)
	if dir != "" && ev.Runnable() && !insideRoot(g.opts.Root, dir) {
		ev.State, ev.Reason = StaleDigest, ReasonCwdOutside
	}
	return ev
}

// insideRoot reports whether dir is root or lexically below it (both made
// absolute); false when either cannot be made absolute.
func insideRoot(root, dir string) bool {
	r, err1 := filepath.Abs(root)
	d, err2 := filepath.Abs(dir)
	if err1 != nil || err2 != nil {
		return false
	}
	_, ok := fsid.Within(r, d)
	return ok
}

func featureOff(digest string) Evaluation {
	return Evaluation{Digest: digest, State: BlockedPolicy, Reason: ReasonFeatureDisabled}
}

// input refreshes the state and returns the evaluation input (without
// declarations).
func (g *Gate) input() EvalInput {
	g.mu.Lock()
	g.refresh()
	st, revoked, hidden, policy := g.state, g.revoked, g.hidden, g.opts.Policy
	g.mu.Unlock()
	return EvalInput{
		WorkspaceID: g.opts.WorkspaceID, Policy: policy, Store: st,
		Revoked: revoked, WorkspaceRoot: g.opts.Root, Site: g.opts.Site, Hashes: g.hashes, hidden: hidden,
	}
}

// verdict evaluates one declaration.
func (g *Gate) verdict(in *EvalInput, d *Declaration) Evaluation {
	e := evaluate(in, d)
	// A session-only revoke hides the persistent record for this
	// session (the spec checks "persistent" before "revoked").
	if e.State == TrustedPersistent && in.hidden[e.Digest] {
		e = Evaluation{Digest: e.Digest, State: Revoked, Reason: ReasonRevoked}
	}
	return e
}

// SetPolicy changes the gate's policy at run time (§"按什么摘要信任": tightening
// the policy bumps the security version; the next admission uses it).
func (g *Gate) SetPolicy(p Policy) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.opts.Policy = p
	g.version++
}

// Records returns the digests the trust file (as last read) trusts for the
// gate's workspace, sorted; nil when the feature is off or the store is
// corrupt.
func (g *Gate) Records() []string {
	if g.store == nil {
		return nil
	}
	g.mu.Lock()
	g.refresh()
	st := g.state
	g.mu.Unlock()
	var out []string
	for _, r := range st.Records {
		if r.WorkspaceID == g.opts.WorkspaceID {
			out = append(out, r.Digest)
		}
	}
	return out
}

// StoreReadable reports whether the trust file is absent or valid, reading
// it without moving a corrupt one aside (Store.Peek). True when the feature
// is off.
func (g *Gate) StoreReadable() bool {
	return g.store == nil || g.store.Peek() != StatusCorrupt
}

// WatchPaths returns the files whose change can move this gate's verdicts:
// the trust file, and every file the workspace's records (as last read) pin
// at any of their sites (ScriptPins under the workspace root, everything
// below a ScriptDirs directory, ScriptLinks targets, the directory of each
// ScriptGlobs pattern; a path pinned at several sites is listed once per
// site). Nil when the feature is off.
func (g *Gate) WatchPaths() []string {
	if g.store == nil {
		return nil
	}
	g.mu.Lock()
	st := g.state // as last read: reading here could move a corrupt file aside
	g.mu.Unlock()
	out := []string{g.store.Path()}
	if st == nil {
		return out
	}
	for i := range st.Records {
		r := &st.Records[i]
		if r.WorkspaceID != g.opts.WorkspaceID {
			continue
		}
		for _, p := range st.sets[i] {
			for rel := range p.Scripts {
				out = append(out, filepath.Join(g.opts.Root, filepath.FromSlash(rel)))
			}
			for rel := range p.Dirs {
				out = append(out, pin.TreePaths(g.opts.Root, rel)...)
			}
			for _, target := range p.Links {
				out = append(out, target)
			}
			for pattern := range p.Globs {
				out = append(out, filepath.Dir(filepath.Join(g.opts.Root, filepath.FromSlash(pattern))))
			}
		}
	}
	return out
}

// RevokeInSession marks digests revoked for this session only: their
// records stay in the trust file but this session does not run them, until
// it grants them again.
func (g *Gate) RevokeInSession(digests []string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.hidden = withMarks(g.hidden, digests, true)
	g.version++
}

// withMarks returns a copy of m with digests set (on) or removed (!on):
// copy-on-write, since Evaluate reads the maps without the lock.
func withMarks(m map[string]bool, digests []string, on bool) map[string]bool {
	nm := make(map[string]bool, len(m)+len(digests))
	for k := range m {
		nm[k] = true
	}
	for _, d := range digests {
		if on {
			nm[d] = true
		} else {
			delete(nm, d)
		}
	}
	return nm
}

// Counts tallies evaluations by trust state.
func Counts(evs []Evaluation) map[string]int {
	c := map[string]int{}
	for _, e := range evs {
		c[string(e.State)]++
	}
	return c
}

// Writer is what grants and revocations go through: a *Gate (refuses
// writes after a corrupt read) or, without a session, a *Store.
type Writer interface {
	Grant(workspaceID string, recs []Record) error
	Revoke(workspaceID string, digests []string) ([]string, error)
}

var (
	_ Writer = (*Gate)(nil)
	_ Writer = (*Store)(nil)
)

// errFeatureOff: the gate has no store (the feature is off).
var errFeatureOff = errors.New("workspace hooks are switched off; nothing was written")

// MoveAside is StoreError for a caller that is about to write, or to
// refuse a write because the store is corrupt: when the gate's store is
// ReadOnly and left a corrupt trust file in place, the file is moved aside
// now (as a session that is not read-only does when it loads it), and the
// error says where it is. A gate that is not ReadOnly moved it already,
// and MoveAside only returns StoreError. Nil while the status is not
// StatusCorrupt, or when the feature is off.
func (g *Gate) MoveAside() error {
	if g.store == nil {
		return nil
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.refresh()
	if g.state.Status != StatusCorrupt {
		return nil
	}
	if ce, ok := errors.AsType[*CorruptError](g.corruptErr); ok && ce.Kept == readOnlyKept {
		g.corruptErr = g.store.moveAside(ce.Why)
	}
	return g.corruptErr
}

// refuseWrite returns ErrCorrupt (wrapped) when the gate's last read of the
// trust file found it corrupt: the file is moved aside (MoveAside: now, if
// a ReadOnly store left it in place), and a write now would start a fresh
// file and pass the recovery off as a success
// (workspace-hook-trust-cli.ts:158 in the spec; PROTOCOL.md §1 -32011).
// The refusal lasts until the trust file is read again without error.
func (g *Gate) refuseWrite() error {
	if g.store == nil {
		return errFeatureOff
	}
	if err := g.MoveAside(); err != nil {
		return fmt.Errorf("%w; nothing was written", err)
	}
	return nil
}

// Grant writes recs to the trust file unless the gate refuses (see
// refuseWrite), and lifts this session's revocations of their digests: a
// persistent record is checked before the revoked mark
// (workspace-hook-trust-evaluation.ts:28), so trusting again takes effect
// at once. Errors: ErrCorrupt, ErrLockTimeout, I/O errors.
func (g *Gate) Grant(workspaceID string, recs []Record) error {
	if err := g.refuseWrite(); err != nil {
		return err
	}
	if err := g.store.Grant(workspaceID, recs); err != nil {
		return err
	}
	digests := make([]string, len(recs))
	for i := range recs {
		digests[i] = recs[i].Digest
	}
	g.mu.Lock()
	g.revoked = withMarks(g.revoked, digests, false)
	g.hidden = withMarks(g.hidden, digests, false)
	g.version++
	g.mu.Unlock()
	return nil
}

// Revoke deletes the records of digests unless the gate refuses (see
// refuseWrite), returning the digests that had a record. Those are marked
// revoked in this session's memory (the spec's revokedKeys): this session
// reports them revoked, a new session pending_trust.
func (g *Gate) Revoke(workspaceID string, digests []string) ([]string, error) {
	if err := g.refuseWrite(); err != nil {
		return nil, err
	}
	deleted, err := g.store.Revoke(workspaceID, digests)
	if err != nil || len(deleted) == 0 {
		return deleted, err
	}
	g.mu.Lock()
	g.revoked = withMarks(g.revoked, deleted, true)
	g.version++
	g.mu.Unlock()
	return deleted, nil
}
