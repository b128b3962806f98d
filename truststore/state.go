package truststore

import (
	"sort"
	"time"

	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/truststore/pin"
)

// TrustState is the admission state of one workspace hook declaration
// (§"按什么摘要信任", the trust states excerpt; PROTOCOL.md §4).
type TrustState string

// The six trust states; the names are the spec's.
const (
	// TrustedPersistent: the trust file holds a record for this workspace
	// and digest (and every pinned script is unchanged). Only this state runs.
	TrustedPersistent TrustState = "trusted_persistent"
	// PendingTrust: never trusted; waiting for the user's review.
	PendingTrust TrustState = "pending_trust"
	// StaleDigest: the same slot (event, source file, matcher, indices) was
	// trusted with another digest, i.e. the declaration was edited; or, beyond
	// the spec, a script the trusted declaration runs changed (Reason
	// ReasonScriptChanged).
	StaleDigest TrustState = "stale_digest"
	// Revoked: revoked in this session's memory (not persisted).
	Revoked TrustState = "revoked"
	// BlockedPolicy: the host policy forbids it (deny, or allow_trusted_only
	// without trust).
	BlockedPolicy TrustState = "blocked_policy"
	// BlockedUntrusted: the trust file is corrupt; nothing is trusted.
	BlockedUntrusted TrustState = "blocked_untrusted"
)

// Policy is the host-injected workspace hook policy (§"按什么摘要信任":
// workspace-hook-policy.ts; PROTOCOL.md §2 initialize.workspaceHookPolicy).
// Project files can never set it.
type Policy string

// The three policies.
const (
	PolicyUserDecides      Policy = "user_decides"       // default: the user reviews and trusts
	PolicyDeny             Policy = "deny"               // no workspace hook runs
	PolicyAllowTrustedOnly Policy = "allow_trusted_only" // trusted ones run, nothing asks
)

// ParsePolicy parses a policy name. "" (not configured) is the default
// user_decides. Any other unknown value yields PolicyDeny and ok=false: the
// spec treats an unreadable policy as deny (workspace-hook-trust-coordinator.ts:155)
// and PROTOCOL.md §2 asks for a diagnostic, which is the caller's job.
func ParsePolicy(s string) (Policy, bool) {
	switch p := Policy(s); p {
	case "":
		return PolicyUserDecides, true
	case PolicyUserDecides, PolicyDeny, PolicyAllowTrustedOnly:
		return p, true
	}
	return PolicyDeny, false
}

// Status is the state of the trust file as last read
// (PROTOCOL.md §2 workspaceHooks.storeStatus).
type Status string

// The three store statuses.
const (
	StatusOK      Status = "ok"      // read and understood
	StatusMissing Status = "missing" // no file yet: nothing trusted, nothing broken
	StatusCorrupt Status = "corrupt" // unreadable: every workspace hook is blocked_untrusted
)

// Reasons carried by an Evaluation, finer than the state.
const (
	ReasonPolicyDeny         = "policy_deny"
	ReasonStoreCorrupt       = "store_corrupt"
	ReasonNotTrusted         = "not_trusted"
	ReasonTrusted            = "trusted"
	ReasonRevoked            = "revoked_in_session"
	ReasonDeclarationChanged = "declaration_changed"
	ReasonScriptChanged      = "script_changed"
	ReasonAllowTrustedOnly   = "policy_allow_trusted_only"
	// ReasonCwdOutside: the run starts in a directory outside the
	// workspace root (a claude input cwd elsewhere), where a grant made in
	// the workspace says nothing about the files it runs (Gate.AdmitAt).
	ReasonCwdOutside = "cwd_outside_workspace"
)

// Snapshot is what a record remembers of the declaration it trusted
// (§"信任存在哪、怎样审查": workspace-hook-trust-store-file.ts:37), for review
// and for the stale-slot rule.
type Snapshot struct {
	hook.Declared
	SourceRelativePath string `json:"sourceRelativePath"`
	// DiscoveryOrder is the source file's place in discovery (covered by
	// the digest); absent in records written before it was recorded.
	DiscoveryOrder *int `json:"discoveryOrder,omitempty"`
}

// snapshotOf returns the snapshot a trust record stores for h.
func snapshotOf(h hook.Hook) Snapshot {
	order := h.Source.DiscoveryOrder
	return Snapshot{Declared: hook.DeclaredOf(&h), SourceRelativePath: h.Source.RelativePath, DiscoveryOrder: &order}
}

// Record is one trust grant in the trust file, keyed by workspace identity
// plus declaration digest (§"按什么摘要信任": workspace-hook-trust-evaluation.ts:66;
// §"信任存在哪、怎样审查": the record's digest, grant time and snapshot,
// workspace-hook-trust-store-file.ts:37). Everything after Snapshot is
// hookside's, beyond the spec (a reader of the same version ignores fields
// it does not know). ScriptPins, ScriptLinks and ScriptGlobs are the
// record's Pins: workspace-relative paths of files the declaration
// names with the SHA-256 of their content at grant time (AbsentPin for a
// path that named nothing), the outside targets of pinned symlinks, and
// glob patterns with the hash of their match lists. ScriptDirs lists the
// ScriptPins paths that are directories, pinned by the hash of their tree
// (pin.treeSum); an older binary that does not know it fails to hash them
// as files, so the record reads as stale there, never as trusted.
//
// Those pins are the ones resolved at Site, the site of the newest grant
// (GrantedAt); OtherSites holds the pin sets granted at other sites
// (newest first, at most MaxSites in all). A binary that knows only the
// record's own pins admits that newest site only. Site nil: not recorded
// (a grant written by an older version).
type Record struct {
	WorkspaceID string            `json:"workspaceId"`
	Digest      string            `json:"digest"`
	GrantedAt   time.Time         `json:"grantedAt"`
	Snapshot    Snapshot          `json:"snapshot"`
	ScriptPins  map[string]string `json:"scriptPins,omitempty"`
	ScriptLinks map[string]string `json:"scriptLinks,omitempty"`
	ScriptGlobs map[string]string `json:"scriptGlobs,omitempty"`
	ScriptDirs  []string          `json:"scriptDirs,omitempty"`
	Site        *SiteKey          `json:"site,omitempty"`
	OtherSites  []SitePins        `json:"otherSites,omitempty"`
}

// Pins returns the record's own pins (those of Site, the newest grant).
func (r *Record) Pins() pin.Pins {
	return pinsOf(r.ScriptPins, r.ScriptLinks, r.ScriptGlobs, r.ScriptDirs)
}

// Declaration is one workspace hook with its digest computed once, so that
// repeated admission checks are map lookups (ARCHITECTURE.md "asked again
// right before each workspace hook starts").
type Declaration struct {
	Hook   hook.Hook
	Digest string
}

// Declare computes h's digest and returns the declaration.
func Declare(h hook.Hook) Declaration { return Declaration{Hook: h, Digest: Digest(h)} }

// recKey is the spec's trust key: workspace identity + digest.
type recKey struct{ workspace, digest string }

// slotKey is the spec's "same position" (workspace-hook-trust-evaluation.ts:70):
// event, source file, matcher, matcher index, hook index, within a workspace.
type slotKey struct {
	workspace, event, source, matcher string
	hasMatcher                        bool
	matcherIndex, hookIndex           int
}

func slotOf(workspace, event, source string, matcher *string, mi, hi int) slotKey {
	k := slotKey{workspace: workspace, event: event, source: source, matcherIndex: mi, hookIndex: hi}
	if matcher != nil {
		k.matcher, k.hasMatcher = *matcher, true
	}
	return k
}

// State is one read of the trust file: its status and records, plus an
// index built once per read (= per store version) so Evaluate does no work
// proportional to the number of records. Treat it as immutable.
type State struct {
	Status  Status
	Records []Record
	byKey   map[recKey]int       // index into Records (and sets)
	bySlot  map[slotKey][]string // digests trusted at a slot
	sets    [][]pin.Pins         // per record: the pins of Record.Sites(), in that order
}

// newState builds a State (and its index) from records. Records are sorted
// by workspace, digest; later duplicates of a key win.
func newState(status Status, records []Record) *State {
	s := &State{Status: status, Records: records,
		byKey: make(map[recKey]int, len(records)), bySlot: make(map[slotKey][]string, len(records)),
		sets: make([][]pin.Pins, len(records))}
	sort.SliceStable(s.Records, func(i, j int) bool {
		a, b := &s.Records[i], &s.Records[j]
		if a.WorkspaceID != b.WorkspaceID {
			return a.WorkspaceID < b.WorkspaceID
		}
		return a.Digest < b.Digest
	})
	for i := range s.Records {
		r := &s.Records[i]
		s.byKey[recKey{r.WorkspaceID, r.Digest}] = i
		s.sets[i] = r.pinSets()
		sn := &r.Snapshot
		k := slotOf(r.WorkspaceID, sn.Event, sn.SourceRelativePath, sn.Matcher, sn.MatcherIndex, sn.HookIndex)
		s.bySlot[k] = append(s.bySlot[k], r.Digest)
	}
	return s
}

// Lookup returns the record trusting digest in workspaceID, if any.
func (s *State) Lookup(workspaceID, digest string) (*Record, bool) {
	if s == nil {
		return nil, false
	}
	i, ok := s.byKey[recKey{workspaceID, digest}]
	if !ok {
		return nil, false
	}
	return &s.Records[i], true
}

// lookup is Lookup with the record's pin sets (the pins of Sites(), in
// that order): one map lookup.
func (s *State) lookup(workspaceID, digest string) (*Record, []pin.Pins) {
	if s == nil {
		return nil, nil
	}
	i, ok := s.byKey[recKey{workspaceID, digest}]
	if !ok {
		return nil, nil
	}
	return &s.Records[i], s.sets[i]
}

// EvalInput is everything Evaluate needs. Store nil means StatusMissing.
type EvalInput struct {
	WorkspaceID  string
	Policy       Policy
	Store        *State
	Declarations []Declaration
	// Revoked holds digests revoked in this session's memory (the spec's
	// revokedKeys; a session belongs to one workspace).
	Revoked map[string]bool
	// WorkspaceRoot resolves ScriptPins. Empty while a record has pins:
	// the pins cannot be verified and count as changed (fail closed).
	WorkspaceRoot string
	// Site is where the declarations would run (the session's directory,
	// project directory and PATH): the pins resolved there must equal a
	// record's for it to hold (PinsMatch). Its zero value is the root.
	Site pin.Site
	// Hashes caches pinned-file hashes across calls (optional).
	Hashes *pin.HashCache
	// hidden: digests whose records a session-only revoke hides (Gate).
	hidden map[string]bool
}

// Evaluation is the verdict for the declaration at the same index.
type Evaluation struct {
	Digest string
	State  TrustState
	Reason string
	// Granted is, for a declaration whose grant went stale, the record it
	// was trusted by: the same digest when a pinned script changed, the
	// record of the same slot when the declaration changed. nil otherwise.
	// Describe turns it into DeclarationStatus.Changes.
	Granted *Record
	// Record is the trust file's record of this digest, whatever the
	// state (nil: none). Describe lists its sites (DeclarationStatus.Sites).
	Record *Record
}

// Runnable reports whether the declaration may run (trusted_persistent only).
func (e Evaluation) Runnable() bool { return e.State == TrustedPersistent }

// Evaluate assigns every declaration its trust state in the spec's fixed
// order (§"按什么摘要信任", workspace-hook-trust-evaluation.ts:28):
//
//  1. policy deny (or an unknown policy)  → blocked_policy
//  2. store corrupt                        → blocked_untrusted
//  3. policy allow_trusted_only            → trusted_persistent if persistent, else blocked_policy
//  4. persistent                           → trusted_persistent
//  5. revoked in session memory            → revoked
//  6. a pinned script changed (hookside)   → stale_digest, Reason "script_changed"
//  7. same slot trusted with another digest→ stale_digest
//  8. otherwise                            → pending_trust
//
// "persistent" means a record for WorkspaceID+digest exists and the pins
// resolved now at in.Site are covered by one of the record's pin sets (PinsMatch;
// beyond the spec: a changed, added or removed script demotes the record
// at every site whose set it touches). Note the spec's
// order puts persistent before revoked: a session-only revoke must also
// hide or delete the record to take effect. Evaluate does no I/O for a
// declaration without a record, nor when WorkspaceRoot is empty.
func Evaluate(in EvalInput) []Evaluation {
	out := make([]Evaluation, len(in.Declarations))
	for i := range in.Declarations {
		out[i] = evaluate(&in, &in.Declarations[i])
	}
	return out
}

func evaluate(in *EvalInput, d *Declaration) Evaluation {
	e := Evaluation{Digest: d.Digest}
	policy := in.Policy
	if policy == "" {
		policy = PolicyUserDecides
	}
	if policy != PolicyUserDecides && policy != PolicyAllowTrustedOnly {
		e.State, e.Reason = BlockedPolicy, ReasonPolicyDeny
		return e
	}
	if in.Store != nil && in.Store.Status == StatusCorrupt {
		e.State, e.Reason = BlockedUntrusted, ReasonStoreCorrupt
		return e
	}
	rec, sets := in.Store.lookup(in.WorkspaceID, d.Digest)
	persistent := rec != nil
	e.Record = rec
	scriptChanged := false
	if persistent && pinsMatch(sets, d.Hook, in.WorkspaceRoot, in.Site, in.Hashes) < 0 {
		persistent, scriptChanged = false, true
	}
	switch {
	case policy == PolicyAllowTrustedOnly:
		if persistent {
			e.State, e.Reason = TrustedPersistent, ReasonTrusted
		} else if scriptChanged {
			e.State, e.Reason, e.Granted = BlockedPolicy, ReasonScriptChanged, rec
		} else {
			e.State, e.Reason = BlockedPolicy, ReasonAllowTrustedOnly
		}
	case persistent:
		e.State, e.Reason = TrustedPersistent, ReasonTrusted
	case in.Revoked[d.Digest]:
		e.State, e.Reason = Revoked, ReasonRevoked
	case scriptChanged:
		e.State, e.Reason, e.Granted = StaleDigest, ReasonScriptChanged, rec
	default:
		if old := in.Store.staleSlot(in.WorkspaceID, d); old != nil {
			e.State, e.Reason, e.Granted = StaleDigest, ReasonDeclarationChanged, old
		} else {
			e.State, e.Reason = PendingTrust, ReasonNotTrusted
		}
	}
	return e
}

// PinsMatch is the one rule by which a grant covers what a declaration
// runs (beyond the spec; docs/protocol.md §4 "Script pins"): the pins
// resolved for h now, relative to its pin root (PinRoot of workspaceRoot)
// at the Site it would run at, are covered by one of rec's pin sets
// (Record.Sites: one per site a grant was made at; pin.MatchIndex): equal
// to it, or everything they resolve to that exists — files, trees, links,
// glob matches — is that set's, with the same hashes and link targets, and
// the rest names nothing. Which site a set was granted at does not
// matter: a set describes the files that may run, so a Site whose existing
// files are all another site's reviewed ones runs what was reviewed, and
// a Site resolving any other existing file is covered by no set. A script
// edited, appearing or retargeted is a change: a session whose directory
// (or PATH, or project directory) resolves the command line to other
// existing files than every grant's,
// e.g. a session in a subdirectory where ./hooks/g.sh is sub/hooks/g.sh
// and no grant was made there, is not covered and needs its own review
// (which adds its set to the record). An error resolving the pins
// (unreadable, unpinnable) is a change. With an empty workspaceRoot
// nothing can be resolved: only a record with a set without pins matches
// (no I/O). It returns the index into rec.Sites() of the set that
// matched, or -1.
func PinsMatch(rec *Record, h hook.Hook, workspaceRoot string, at pin.Site, c *pin.HashCache) int {
	return pinsMatch(rec.pinSets(), h, workspaceRoot, at, c)
}

// pinsMatch is PinsMatch against sets, the pins of a record's Sites() in
// that order (evaluate passes the State's, built once per reading).
func pinsMatch(sets []pin.Pins, h hook.Hook, workspaceRoot string, at pin.Site, c *pin.HashCache) int {
	return pin.MatchIndex(sets, h, PinRoot(h, workspaceRoot), at, c)
}

// pinSets returns the pins of r.Sites(), in that order.
func (r *Record) pinSets() []pin.Pins {
	sets := make([]pin.Pins, 0, 1+len(r.OtherSites))
	sets = append(sets, r.Pins())
	for j := range r.OtherSites {
		sets = append(sets, r.OtherSites[j].Pins())
	}
	return sets
}

// staleSlot returns a record trusting another digest at d's slot (the
// most recent grant when there are several), or nil.
func (s *State) staleSlot(workspace string, d *Declaration) *Record {
	if s == nil {
		return nil
	}
	h := &d.Hook
	var out *Record
	for _, dg := range s.bySlot[slotOf(workspace, h.Event, h.Source.RelativePath, h.Matcher, h.MatcherIndex, h.HookIndex)] {
		if dg == d.Digest {
			continue
		}
		if i, ok := s.byKey[recKey{workspace, dg}]; ok && (out == nil || s.Records[i].GrantedAt.After(out.GrantedAt)) {
			out = &s.Records[i]
		}
	}
	return out
}
