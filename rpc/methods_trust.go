package rpc

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"sync"
	"time"

	"github.com/hookside/hookside/internal/randid"
	"github.com/hookside/hookside/runner"
	"github.com/hookside/hookside/truststore"
)

// ReviewTTL is how long a review stays open (workspace-hook-trust.ts:4 in
// the spec: 10 minutes).
const ReviewTTL = 10 * time.Minute

// review is an open review: the declarations exactly as shown, with the
// script pins computed when it started (granted as such at submit, and only
// if the scripts still pin the same then).
type review struct {
	id        string
	sessionID string
	expires   time.Time
	bundle    string
	decls     map[string]truststore.Declaration
	shown     *truststore.Shown
	ws        *truststore.Workspace // its root and Site: re-pinned there at submit
}

// reviewSet holds the open reviews of one connection (Server.reviews). A
// review belongs to a session of that connection, so another connection
// could not submit it anyway. Reviews that expired or were used are
// remembered for goneTTL (gone), so that -32010 can say which.
type reviewSet struct {
	mu   sync.Mutex
	m    map[string]*review
	gone map[string]goneReview
}

// goneReview is a review that can no longer be submitted: why ("expired",
// "used") and when it is forgotten.
type goneReview struct {
	why    string
	forget time.Time
}

// goneTTL is how long an expired or used review id is remembered.
const goneTTL = time.Hour

// add stores r and forgets the reviews that expired by now (remembering
// them as expired).
func (rs *reviewSet) add(r *review, now time.Time) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if rs.m == nil {
		rs.m = map[string]*review{}
	}
	for id, old := range rs.m {
		if now.After(old.expires) {
			rs.bury(id, "expired", now)
		}
	}
	for id, g := range rs.gone {
		if now.After(g.forget) {
			delete(rs.gone, id)
		}
	}
	rs.m[r.id] = r
}

// bury moves review id from the open set to gone with why. Caller holds mu.
func (rs *reviewSet) bury(id, why string, now time.Time) {
	delete(rs.m, id)
	if rs.gone == nil {
		rs.gone = map[string]goneReview{}
	}
	rs.gone[id] = goneReview{why: why, forget: now.Add(goneTTL)}
}

// get returns the open review id, or nil and why it cannot be submitted:
// "expired" (it expired by now, or earlier), "used" (submitted already),
// "unknown" (never started on this connection, or forgotten since).
func (rs *reviewSet) get(id string, now time.Time) (*review, string) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	r := rs.m[id]
	if r != nil && now.After(r.expires) {
		rs.bury(id, "expired", now)
		r = nil
	}
	if r != nil {
		return r, ""
	}
	if g, ok := rs.gone[id]; ok {
		return nil, g.why
	}
	return nil, "unknown"
}

// use forgets review id, remembering it as used (a review is single-use).
func (rs *reviewSet) use(id string) {
	rs.mu.Lock()
	rs.bury(id, "used", time.Now())
	rs.mu.Unlock()
}

// reviewGone is the -32010 error for a review that cannot be submitted
// (why from reviewSet.get): the message says which case it is.
func reviewGone(id, why string) *Error {
	var what string
	switch why {
	case "expired":
		what = fmt.Sprintf("expired (a review lasts %d minutes)", int(ReviewTTL/time.Minute))
	case "used":
		what = "was already submitted (a review is single-use)"
	default:
		what = "is unknown on this connection"
	}
	return &Error{Code: CodeReviewExpired, Message: fmt.Sprintf("review %q %s: start a new review", id, what)}
}

// TrustStatus is the result of workspaceHooks/status (PROTOCOL.md §4), also
// printed by `hookside hooks trust status --json` (there with counts over
// every declaration listed, and the root switch): the workspace id, the
// policy, the trust store's status (with storeStatus "corrupt", StoreError
// names the file, why it is corrupt and its .corrupt-<timestamp> name or
// that it was left in place), the bundle digest over every declaration
// with its pins, the counts per trust state and each declaration's status.
type TrustStatus struct {
	WorkspaceID  string                         `json:"workspaceId"`
	Policy       string                         `json:"policy"`
	StoreStatus  string                         `json:"storeStatus"`
	StoreError   string                         `json:"storeError,omitempty"`
	BundleDigest string                         `json:"bundleDigest"`
	Counts       map[string]int                 `json:"counts"`
	Declarations []truststore.DeclarationStatus `json:"declarations"`
}

func statusResult(ss *session, w runner.WorkspaceState, sh *truststore.Shown) TrustStatus {
	if sh == nil {
		sh = truststore.Show(w.Workspace)
	}
	decls := ss.rs.DescribeWorkspace(w, sh)
	return TrustStatus{
		WorkspaceID: ss.rs.Options().WorkspaceID, Policy: string(w.Policy), StoreStatus: string(w.StoreStatus),
		StoreError:   storeErrorText(ss.rs.Gate()),
		BundleDigest: sh.BundleDigest, Counts: w.Counts, Declarations: decls,
	}
}

// storeErrorText is why the gate's trust file reads corrupt ("" otherwise).
func storeErrorText(g *truststore.Gate) string {
	if err := g.StoreError(); err != nil {
		return err.Error()
	}
	return ""
}

type trustStatusParams struct {
	SessionID string `json:"sessionId"`
	Workspace string `json:"workspace"`
}

func (s *Server) trustStatus(_ context.Context, p trustStatusParams) (*TrustStatus, error) {
	if p.SessionID != "" {
		ss, err := s.lookup(p.SessionID)
		if err != nil {
			return nil, err
		}
		st := statusResult(ss, ss.rs.WorkspaceStatus(), nil)
		return &st, nil
	}
	if p.Workspace == "" {
		return nil, InvalidParams("sessionId", "sessionId or workspace is required")
	}
	t, err := truststore.ResolveTarget(p.Workspace)
	if err != nil {
		return nil, InvalidParams("workspace", err.Error())
	}
	if t.Dir == "" {
		return nil, InvalidParams("workspace", "a remote identity has no local files to discover; open a session for it instead")
	}
	// A throwaway session with the feature on: status reads the trust file,
	// read-only (a corrupt one is reported, not moved aside).
	s.mu.Lock()
	home, init := s.home, s.init
	s.mu.Unlock()
	policy, _ := truststore.ParsePolicy(init.policy)
	rs, _, err := runner.Open(runner.SessionOptions{
		ID: "status", Cwd: t.Dir, WorkspaceID: t.ID, UserConfigPath: userConfigPath(home, init),
		Workspace: runner.WorkspaceOptions{Feature: true, Policy: policy, Home: home, Store: truststore.Options{ReadOnly: true}},
	})
	if err != nil {
		return nil, InvalidParams("workspace", err.Error())
	}
	defer rs.Close()
	st := statusResult(&session{rs: rs}, rs.WorkspaceStatus(), nil)
	return &st, nil
}

type reviewStartResult struct {
	ReviewID     string                         `json:"reviewId"`
	ExpiresAt    string                         `json:"expiresAt"`
	BundleDigest string                         `json:"bundleDigest"`
	Declarations []truststore.DeclarationStatus `json:"declarations"`
}

// reviewStartParams are workspaceHooks/review/start's: the session, and
// optionally runCwd, the directory a claude-profile run starts in (its
// input cwd), to review at: the review shows the pins resolved there and
// trust_selected adds that site's set to each record (docs/protocol.md §4).
type reviewStartParams struct {
	SessionID string `json:"sessionId"`
	RunCwd    string `json:"runCwd"`
}

func (s *Server) reviewStart(_ context.Context, p reviewStartParams) (*reviewStartResult, error) {
	ss, err := s.lookup(p.SessionID)
	if err != nil {
		return nil, err
	}
	dir, err := reviewRunDir(ss.rs, p.RunCwd)
	if err != nil {
		return nil, err
	}
	w := ss.rs.WorkspaceStatusAt(dir)
	sh := truststore.Show(w.Workspace)
	r := &review{
		id: randid.New("rev_"), sessionID: ss.id, expires: time.Now().Add(ReviewTTL),
		bundle: sh.BundleDigest, decls: map[string]truststore.Declaration{}, shown: sh,
		ws: w.Workspace,
	}
	for _, d := range w.Declarations {
		r.decls[d.Digest] = d
	}
	s.reviews.add(r, time.Now())
	st := statusResult(ss, w, sh)
	return &reviewStartResult{r.id, r.expires.UTC().Format(time.RFC3339), r.bundle, st.Declarations}, nil
}

// reviewRunDir is review/start's runCwd as the run directory of the
// session (runner.Session.RunDir; "" for none): -32602 on runCwd when it
// is not absolute, the session is not claude-profile, it is no existing
// directory or it is not inside the workspace.
func reviewRunDir(rs *runner.Session, runCwd string) (string, error) {
	if runCwd == "" {
		return "", nil
	}
	if !filepath.IsAbs(runCwd) {
		return "", InvalidParams("runCwd", "must be an absolute path")
	}
	d, err := rs.RunDir(runCwd)
	switch {
	case err == nil:
		return d, nil
	case errors.Is(err, runner.ErrRunDirProfile):
		return "", InvalidParams("runCwd", "only a claude-profile session's runs start in a directory of their own (the input cwd)")
	case errors.Is(err, runner.ErrRunDirOutside):
		return "", InvalidParams("runCwd", fmt.Sprintf("%s is not inside the workspace %s: a run there admits no workspace hook, and no grant can cover it", runCwd, rs.Options().Cwd))
	}
	return "", InvalidParams("runCwd", runCwd+" is not an existing directory")
}

type failedDigest struct {
	Digest string `json:"digest"`
	Reason string `json:"reason"`
}

type reviewSubmitParams struct {
	ReviewID string   `json:"reviewId"`
	Decision string   `json:"decision"`
	Digests  []string `json:"digests"`
}

type reviewSubmitResult struct {
	Trusted  []string       `json:"trusted"`
	Disabled []string       `json:"disabled"`
	Failed   []failedDigest `json:"failed,omitempty"`
	Counts   map[string]int `json:"counts"`
}

func (s *Server) reviewSubmit(_ context.Context, p reviewSubmitParams) (*reviewSubmitResult, error) {
	if p.ReviewID == "" {
		return nil, InvalidParams("reviewId", "required")
	}
	if p.Decision != "trust_selected" && p.Decision != "disable_selected" {
		return nil, InvalidParams("decision", "must be trust_selected or disable_selected")
	}
	if len(p.Digests) == 0 {
		return nil, InvalidParams("digests", "select at least one declaration")
	}
	r, why := s.reviews.get(p.ReviewID, time.Now())
	if r == nil {
		return nil, reviewGone(p.ReviewID, why)
	}
	ss, err := s.lookup(r.sessionID)
	if err != nil {
		return nil, err
	}
	sel := make([]truststore.Declaration, 0, len(p.Digests))
	for i, d := range p.Digests {
		decl, ok := r.decls[d]
		if !ok {
			return nil, InvalidParams(fmt.Sprintf("digests[%d]", i), "not a declaration of this review")
		}
		sel = append(sel, decl)
	}
	res := &reviewSubmitResult{Trusted: []string{}, Disabled: []string{}}
	if p.Decision == "trust_selected" {
		store := ss.rs.Gate().Store()
		if store == nil {
			return nil, InvalidParams("reviewId", "workspace hooks are switched off for this session (session/open.workspaceHooks)")
		}
		// Grant exactly what was reviewed: the pins computed at review/start,
		// and only where the scripts still pin the same now.
		var ok []truststore.Declaration
		for _, d := range sel {
			switch err := r.shown.StillAsShown(d, r.ws.Root, r.ws.PinSite()); {
			case errors.Is(err, truststore.ErrChangedSinceShown):
				res.Failed = append(res.Failed, failedDigest{Digest: d.Digest, Reason: err.Error() + "; start a new review"})
			case err != nil:
				res.Failed = append(res.Failed, failedDigest{Digest: d.Digest, Reason: err.Error()})
			default:
				ok = append(ok, d)
			}
		}
		if len(ok) > 0 {
			if err := truststore.GrantShown(ss.rs.Gate(), ss.rs.Options().WorkspaceID, r.shown, ok); err != nil {
				return nil, trustError(err)
			}
		}
		for _, d := range ok {
			res.Trusted = append(res.Trusted, d.Digest)
		}
	} else {
		limits := ss.rs.UserLimits()
		for _, d := range sel {
			if err := runner.Disable(d, limits); err != nil {
				res.Failed = append(res.Failed, failedDigest{Digest: d.Digest, Reason: err.Error()})
				continue
			}
			res.Disabled = append(res.Disabled, d.Digest)
		}
	}
	s.reviews.use(r.id)
	res.Counts = ss.rs.WorkspaceStatus().Counts
	return res, nil
}

// trustError maps the errors of a trust file write (grant, revoke) to wire
// errors: ErrCorrupt is -32011; everything else (ErrLockTimeout, I/O) is
// -32603. The truststore messages are written for the user (what failed,
// which file, what to do: "the workspace hook trust file is busy: its lock
// F.lock is held by pid 4242 … for over 5s; nothing was written: try
// again when that process is done") and are passed on as they are.
func trustError(err error) error {
	if errors.Is(err, truststore.ErrCorrupt) {
		return &Error{Code: CodeTrustCorrupt, Message: err.Error()}
	}
	return &Error{Code: CodeInternalError, Message: err.Error()}
}

type trustRevokeParams struct {
	SessionID string   `json:"sessionId"`
	Digests   []string `json:"digests"`
	Persist   bool     `json:"persist"`
}

type trustRevokeResult struct {
	Revoked []string       `json:"revoked"`
	Unknown []string       `json:"unknown"`
	Persist bool           `json:"persist"`
	Counts  map[string]int `json:"counts"`
}

func (s *Server) trustRevoke(_ context.Context, p trustRevokeParams) (*trustRevokeResult, error) {
	ss, err := s.lookup(p.SessionID)
	if err != nil {
		return nil, err
	}
	if len(p.Digests) == 0 {
		return nil, InvalidParams("digests", "name at least one digest")
	}
	unknown := []string{}
	revoked := []string{}
	if p.Persist {
		store := ss.rs.Gate().Store()
		if store == nil {
			return nil, InvalidParams("sessionId", "workspace hooks are switched off for this session (session/open.workspaceHooks)")
		}
		deleted, err := ss.rs.Gate().Revoke(ss.rs.Options().WorkspaceID, p.Digests)
		if err != nil {
			return nil, trustError(err)
		}
		revoked = deleted
		done := map[string]bool{}
		for _, d := range deleted {
			done[d] = true
		}
		for _, d := range p.Digests {
			if !done[d] {
				done[d] = true
				unknown = append(unknown, d)
			}
		}
	} else {
		// Only digests this session knows (a declaration, or a record of
		// its workspace) are revoked; the rest are reported as unknown.
		known := map[string]bool{}
		for _, d := range ss.rs.WorkspaceStatus().Declarations {
			known[d.Digest] = true
		}
		for _, d := range ss.rs.Gate().Records() {
			known[d] = true
		}
		seen := map[string]bool{}
		for _, d := range p.Digests {
			if seen[d] {
				continue
			}
			seen[d] = true
			if known[d] {
				revoked = append(revoked, d)
			} else {
				unknown = append(unknown, d)
			}
		}
		if len(revoked) > 0 {
			ss.rs.Gate().RevokeInSession(revoked)
		}
	}
	return &trustRevokeResult{revoked, unknown, p.Persist, ss.rs.WorkspaceStatus().Counts}, nil
}

type policySetParams struct {
	SessionID string `json:"sessionId"`
	Policy    string `json:"policy"`
}

type policySession struct {
	SessionID string         `json:"sessionId"`
	Counts    map[string]int `json:"counts"`
}

type policySetResult struct {
	Policy   string          `json:"policy"`
	Sessions []policySession `json:"sessions"`
}

// policySet changes the workspace hook policy on a live connection
// (PROTOCOL.md §4 workspaceHooks/policy/set; lifecycle-hooks-and-workspace-trust
// §"按什么摘要信任": tightening the policy takes effect at the next evaluation).
// With sessionId, that session only; without, the connection's policy (the
// sessions opened later) and every open session. Each changed session pushes
// workspaceHooks/admissionUpdated. Errors: -32602 for an unknown policy,
// -32012 for an unknown session.
func (s *Server) policySet(_ context.Context, p policySetParams) (*policySetResult, error) {
	policy, ok := truststore.ParsePolicy(p.Policy)
	if !ok || p.Policy == "" {
		return nil, InvalidParams("policy", fmt.Sprintf("must be one of user_decides, deny, allow_trusted_only (got %q)", p.Policy))
	}
	var targets []*session
	if p.SessionID != "" {
		ss, err := s.lookup(p.SessionID)
		if err != nil {
			return nil, err
		}
		targets = []*session{ss}
	} else {
		s.mu.Lock()
		if s.init != nil {
			ni := *s.init // copy-on-write: readers copied the pointer under mu
			ni.policy = string(policy)
			s.init = &ni
		}
		for _, ss := range s.sessions {
			targets = append(targets, ss)
		}
		s.mu.Unlock()
	}
	res := &policySetResult{Policy: string(policy), Sessions: []policySession{}}
	for _, ss := range targets {
		st := ss.rs.SetPolicy(policy)
		res.Sessions = append(res.Sessions, policySession{SessionID: ss.id, Counts: st.Counts})
	}
	sort.Slice(res.Sessions, func(i, j int) bool { return res.Sessions[i].SessionID < res.Sessions[j].SessionID })
	return res, nil
}
