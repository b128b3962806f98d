package rpc

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/hookside/hookside/runner"
	"github.com/hookside/hookside/truststore"
	"github.com/hookside/hookside/truststore/pin"
	"github.com/sourcegraph/jsonrpc2"
)

func init() {
	register("workspaceHooks/status", (*Server).trustStatus, false)
	register("workspaceHooks/review/start", (*Server).reviewStart, false)
	register("workspaceHooks/review/submit", (*Server).reviewSubmit, false)
	register("workspaceHooks/revoke", (*Server).trustRevoke, false)
}

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
	root, cwd string
}

// reviews holds the open reviews of all connections of this process.
var reviews = struct {
	sync.Mutex
	m map[string]*review
}{m: map[string]*review{}}

type trustStatusResult struct {
	WorkspaceID  string                         `json:"workspaceId"`
	Policy       string                         `json:"policy"`
	StoreStatus  string                         `json:"storeStatus"`
	BundleDigest string                         `json:"bundleDigest"`
	Counts       map[string]int                 `json:"counts"`
	Declarations []truststore.DeclarationStatus `json:"declarations"`
}

func statusResult(ss *session, w runner.WorkspaceState, sh *truststore.Shown) trustStatusResult {
	if sh == nil {
		sh = truststore.Show(w.Workspace)
	}
	decls := truststore.Describe(w.Workspace, w.Evaluations, sh)
	return trustStatusResult{
		WorkspaceID: ss.rs.Options().WorkspaceID, Policy: string(w.Policy), StoreStatus: string(w.StoreStatus),
		BundleDigest: sh.BundleDigest, Counts: w.Counts, Declarations: decls,
	}
}

func (s *Server) trustStatus(_ context.Context, req *jsonrpc2.Request) (any, error) {
	var p struct {
		SessionID string `json:"sessionId"`
		Workspace string `json:"workspace"`
	}
	if err := decodeParams(req, &p); err != nil {
		return nil, err
	}
	if p.SessionID != "" {
		ss, err := s.lookup(p.SessionID)
		if err != nil {
			return nil, err
		}
		return statusResult(ss, ss.rs.WorkspaceStatus(), nil), nil
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
	// A throwaway session with the feature on: status reads the trust file.
	s.mu.Lock()
	home, init := s.home, s.init
	s.mu.Unlock()
	policy, _ := truststore.ParsePolicy(init.policy)
	rs, _ := runner.NewSession(runner.SessionOptions{
		ID: "status", Cwd: t.Dir, WorkspaceID: t.ID, UserConfigPath: userConfigPath(home, init),
		Workspace: runner.WorkspaceOptions{Feature: true, Policy: policy, Home: home},
	})
	defer rs.Close()
	return statusResult(&session{rs: rs}, rs.WorkspaceStatus(), nil), nil
}

func (s *Server) reviewStart(_ context.Context, req *jsonrpc2.Request) (any, error) {
	var p sessionIDParams
	if err := decodeParams(req, &p); err != nil {
		return nil, err
	}
	ss, err := s.lookup(p.SessionID)
	if err != nil {
		return nil, err
	}
	w := ss.rs.WorkspaceStatus()
	sh := truststore.Show(w.Workspace)
	var b [12]byte
	_, _ = rand.Read(b[:])
	r := &review{
		id: "rev_" + hex.EncodeToString(b[:]), sessionID: ss.id, expires: time.Now().Add(ReviewTTL),
		bundle: sh.BundleDigest, decls: map[string]truststore.Declaration{}, shown: sh,
		root: w.Workspace.Root, cwd: w.Workspace.Cwd,
	}
	for _, d := range w.Declarations {
		r.decls[d.Digest] = d
	}
	reviews.Lock()
	now := time.Now()
	for id, old := range reviews.m {
		if now.After(old.expires) {
			delete(reviews.m, id)
		}
	}
	reviews.m[r.id] = r
	reviews.Unlock()
	st := statusResult(ss, w, sh)
	return struct {
		ReviewID     string                         `json:"reviewId"`
		ExpiresAt    string                         `json:"expiresAt"`
		BundleDigest string                         `json:"bundleDigest"`
		Declarations []truststore.DeclarationStatus `json:"declarations"`
	}{r.id, r.expires.UTC().Format(time.RFC3339), r.bundle, st.Declarations}, nil
}

type failedDigest struct {
	Digest string `json:"digest"`
	Reason string `json:"reason"`
}

func (s *Server) reviewSubmit(_ context.Context, req *jsonrpc2.Request) (any, error) {
	var p struct {
		ReviewID string   `json:"reviewId"`
		Decision string   `json:"decision"`
		Digests  []string `json:"digests"`
	}
	if err := decodeParams(req, &p); err != nil {
		return nil, err
	}
	if p.ReviewID == "" {
		return nil, InvalidParams("reviewId", "required")
	}
	if p.Decision != "trust_selected" && p.Decision != "disable_selected" {
		return nil, InvalidParams("decision", "must be trust_selected or disable_selected")
	}
	if len(p.Digests) == 0 {
		return nil, InvalidParams("digests", "select at least one declaration")
	}
	reviews.Lock()
	r := reviews.m[p.ReviewID]
	if r != nil && time.Now().After(r.expires) {
		delete(reviews.m, p.ReviewID)
		r = nil
	}
	reviews.Unlock()
	if r == nil {
		return nil, &Error{Code: CodeReviewExpired, Message: fmt.Sprintf("review %q expired or unknown: start a new review", p.ReviewID)}
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
	res := struct {
		Trusted  []string       `json:"trusted"`
		Disabled []string       `json:"disabled"`
		Failed   []failedDigest `json:"failed,omitempty"`
		Counts   map[string]int `json:"counts"`
	}{Trusted: []string{}, Disabled: []string{}}
	if p.Decision == "trust_selected" {
		store := ss.rs.Gate().Store()
		if store == nil {
			return nil, InvalidParams("reviewId", "workspace hooks are switched off for this session (session/open.workspaceHooks)")
		}
		// Grant exactly what was reviewed: the pins computed at review/start,
		// and only where the scripts still pin the same now.
		var ok []truststore.Declaration
		for _, d := range sel {
			shown, perr, _ := r.shown.PinsOf(d.Digest)
			if perr != nil {
				res.Failed = append(res.Failed, failedDigest{Digest: d.Digest, Reason: "scripts could not be pinned: " + perr.Error()})
				continue
			}
			now, err := pin.PinScriptsIn(d.Hook, r.root, r.cwd)
			if err != nil {
				res.Failed = append(res.Failed, failedDigest{Digest: d.Digest, Reason: "scripts could not be pinned: " + err.Error()})
				continue
			}
			if !now.Equal(shown) {
				res.Failed = append(res.Failed, failedDigest{Digest: d.Digest,
					Reason: "script_changed_since_review: a script this declaration runs changed (or appeared, or disappeared) after the review started; start a new review"})
				continue
			}
			ok = append(ok, d)
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
			if err := truststore.Disable(d, limits); err != nil {
				res.Failed = append(res.Failed, failedDigest{Digest: d.Digest, Reason: err.Error()})
				continue
			}
			res.Disabled = append(res.Disabled, d.Digest)
		}
	}
	reviews.Lock()
	delete(reviews.m, r.id)
	reviews.Unlock()
	res.Counts = ss.rs.WorkspaceStatus().Counts
	return res, nil
}

// trustError maps trust store errors to wire errors.
func trustError(err error) error {
	switch {
	case errors.Is(err, truststore.ErrCorrupt):
		return &Error{Code: CodeTrustCorrupt, Message: "trust store corrupt: it was moved aside as .corrupt-<timestamp>; writes refused: " + err.Error()}
	case errors.Is(err, truststore.ErrLockTimeout):
		return &Error{Code: CodeInternalError, Message: err.Error()}
	}
	return &Error{Code: CodeInternalError, Message: "trust store: " + err.Error()}
}

func (s *Server) trustRevoke(_ context.Context, req *jsonrpc2.Request) (any, error) {
	var p struct {
		SessionID string   `json:"sessionId"`
		Digests   []string `json:"digests"`
		Persist   bool     `json:"persist"`
	}
	if err := decodeParams(req, &p); err != nil {
		return nil, err
	}
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
	return struct {
		Revoked []string       `json:"revoked"`
		Unknown []string       `json:"unknown"`
		Persist bool           `json:"persist"`
		Counts  map[string]int `json:"counts"`
	}{revoked, unknown, p.Persist, ss.rs.WorkspaceStatus().Counts}, nil
}
