package rpc

import (
	"context"
	"errors"
	"os"
	"time"

	"github.com/hookside/hookside/internal/home"
	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/output"
	"github.com/hookside/hookside/runner"
	"github.com/hookside/hookside/v2bridge"
	"github.com/hookside/hookside/v2bridge/store"
)

// The session mailbox (docs/protocol.md §6; lifecycle-hooks-and-workspace-trust
// §"插件钩子与工作区钩子", last part) and the session purge of the V2 store
// (hooks-v2-handbook §9.2). Messages live in the V2 database and belong to
// the session id, not to this connection: posting needs no open session.

// mailboxHookName is the internal hook (and handler) name of the mailbox.
const mailboxHookName = "mailbox"

// mailboxEvents are the events the mailbox hook runs on (session-mailbox.ts:9).
var mailboxEvents = []string{hook.UserPromptSubmit, hook.PostToolUse, hook.Stop}

type mailboxPostParams struct {
	SessionID string `json:"sessionId"`
	From      string `json:"from"`
	Text      string `json:"text"`
}

func (s *Server) mailboxPost(ctx context.Context, b *v2bridge.Bridge, p mailboxPostParams) (v2bridge.PostResult, error) {
	return b.PostMessage(ctx, p.SessionID, p.From, p.Text)
}

type mailboxListParams struct {
	SessionID  string `json:"sessionId"`
	UnreadOnly bool   `json:"unreadOnly"`
}

func (s *Server) mailboxList(ctx context.Context, b *v2bridge.Bridge, p mailboxListParams) (v2bridge.MessagesResult, error) {
	return b.ListMessages(ctx, p.SessionID, p.UnreadOnly)
}

func (s *Server) sessionsPurge(ctx context.Context, b *v2bridge.Bridge, p sessionIDParams) (store.Purged, error) {
	return b.PurgeSession(ctx, p.SessionID)
}

// mailboxHooks returns the internal mailbox hooks of a session and their
// handler, for runner.SessionOptions.Internal / InternalHandlers.
func (s *Server) mailboxHooks() ([]hook.Hook, map[string]runner.InternalHandler) {
	hooks := make([]hook.Hook, 0, len(mailboxEvents))
	for _, ev := range mailboxEvents {
		hooks = append(hooks, runner.InternalHook(mailboxHookName, ev, 0))
	}
	return hooks, map[string]runner.InternalHandler{mailboxHookName: s.deliverMailbox}
}

// mailboxBudget bounds the mailbox hook on the shell-hook path: a locked or
// slow hookside.db (another process holding a write lock) must not stall the
// hook. Past the budget nothing is delivered (and nothing marked read); the
// messages wait for the next event.
const (
	mailboxBudget     = 250 * time.Millisecond
	mailboxOpenBudget = 500 * time.Millisecond
)

// deliverMailbox is the mailbox hook: up to 20 unread messages of the
// session, oldest first, become additional context (one entry per message)
// and are marked read in the same transaction. On Stop the hook also asks
// for a continuation, so the model sees them before the turn ends. It never
// fails the run visibly: when the V2 database is missing (nothing was ever
// posted on this home), unavailable or busy beyond mailboxBudget, it answers
// nothing.
func (s *Server) deliverMailbox(ctx context.Context, req runner.InternalRequest) (output.Answer, error) {
	if !s.v2IsOpen() {
		// Do not create hookside.db for a home that never used V2.
		s.mu.Lock()
		dir := s.home
		s.mu.Unlock()
		if _, err := os.Stat(home.DBPath(dir)); errors.Is(err, os.ErrNotExist) {
			return output.Answer{}, nil
		}
	}
	// Opening may wait on a lock (migrations write): wait a bounded time; the
	// open goes on in the background and the next event finds it open.
	// Meanwhile no hook/completed of the run waits for its next frame.
	if o := observerOf(ctx); o != nil {
		defer o.wait()()
	} else {
		s.flushHeld()
	}
	b, err := s.v2BridgeWithin(ctx, mailboxOpenBudget)
	if err != nil {
		s.log.Debug("mailbox: V2 store unavailable or still opening, nothing delivered", "session", req.SessionID, "err", err)
		return output.Answer{}, nil
	}
	dctx, cancel := context.WithTimeout(ctx, mailboxBudget)
	defer cancel()
	msgs, err := b.DeliverMailbox(dctx, req.SessionID)
	if err != nil {
		if dctx.Err() != nil {
			s.log.Debug("mailbox: V2 store busy, delivery left for the next event", "session", req.SessionID, "err", err)
		} else {
			s.log.Warn("mailbox: delivery failed", "session", req.SessionID, "err", err)
		}
		return output.Answer{}, nil
	}
	ans := output.Answer{AdditionalContext: msgs}
	if len(msgs) > 0 && req.Event == hook.Stop {
		ans.ContinueRequested = true
	}
	return ans, nil
}

// v2IsOpen reports whether the bridge is open already.
func (s *Server) v2IsOpen() bool {
	s.v2.mu.Lock()
	defer s.v2.mu.Unlock()
	return s.v2.bridge != nil
}
