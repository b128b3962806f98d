package v2bridge

import (
	"context"
	"errors"
	"strings"

	"github.com/hookside/hookside/v2bridge/store"
)

// PostResult is the session/mailbox/post result.
type PostResult struct {
	MessageID string `json:"messageId"`
	Unread    int    `json:"unread"`
}

// MessagesResult is the session/mailbox/list result.
type MessagesResult struct {
	Messages []store.MailboxMessage `json:"messages"`
}

// mailboxErr maps store mailbox errors: bad arguments and a full mailbox
// become *InvalidError (-32602), the rest storeErr's mapping.
func mailboxErr(err error) error {
	var fe *store.MailboxFieldError
	switch {
	case errors.As(err, &fe):
		return invalid(fe.Field, "%s", fe.Reason)
	case errors.Is(err, store.ErrMailboxFull):
		return invalid("sessionId", "the session mailbox is full: at most %d unread messages (they are delivered %d at a time on UserPromptSubmit, PostToolUse and Stop)",
			store.MaxUnread, store.MailboxBatch)
	}
	return storeErr(err, "")
}

// checkSessionID is store.CheckSessionID as an *InvalidError.
func checkSessionID(sessionID string, required bool) error {
	if err := store.CheckSessionID(sessionID, required); err != nil {
		return mailboxErr(err)
	}
	return nil
}

// PostMessage posts a message to the mailbox of sessionID (session/mailbox/post).
func (b *Bridge) PostMessage(ctx context.Context, sessionID, from, text string) (PostResult, error) {
	m, unread, err := b.db.PostMessage(ctx, sessionID, from, text)
	if err != nil {
		return PostResult{}, mailboxErr(err)
	}
	return PostResult{MessageID: m.ID, Unread: unread}, nil
}

// ListMessages lists the mailbox of sessionID, oldest first
// (session/mailbox/list).
func (b *Bridge) ListMessages(ctx context.Context, sessionID string, unreadOnly bool) (MessagesResult, error) {
	ms, err := b.db.ListMessages(ctx, sessionID, unreadOnly)
	if err != nil {
		return MessagesResult{}, mailboxErr(err)
	}
	return MessagesResult{Messages: ms}, nil
}

// DeliverMailbox takes up to store.MailboxBatch unread messages of
// sessionID, oldest first, marking them read in the same transaction, and
// returns them as additional-context entries (MailboxContext).
func (b *Bridge) DeliverMailbox(ctx context.Context, sessionID string) ([]string, error) {
	// A read first (WAL readers are never blocked by a writer): the usual
	// empty mailbox costs no write lock.
	if err := checkSessionID(sessionID, true); err != nil {
		return nil, err
	}
	if has, err := b.db.HasUnread(ctx, sessionID); err == nil && !has {
		return []string{}, nil
	}
	ms, err := b.db.TakeUnread(ctx, sessionID, store.MailboxBatch)
	if err != nil {
		return nil, mailboxErr(err)
	}
	return MailboxContext(ms), nil
}

// MailboxContext formats delivered messages as additional context: one
// entry per message, in order, "Session mailbox message from <from>:\n<text>"
// ("Session mailbox message:\n<text>" without a sender). One entry per
// message keeps them apart in the model context (tool events number each
// entry #1, #2, …).
func MailboxContext(ms []store.MailboxMessage) []string {
	out := make([]string, 0, len(ms))
	for _, m := range ms {
		var sb strings.Builder
		sb.WriteString("Session mailbox message")
		if f := strings.TrimSpace(m.From); f != "" {
			sb.WriteString(" from ")
			sb.WriteString(f)
		}
		sb.WriteString(":\n")
		sb.WriteString(m.Text)
		out = append(out, sb.String())
	}
	return out
}

// PurgeSession deletes the runs, events and mailbox of sessionID in one
// transaction (v2/sessions/purge, hooks-v2-handbook §9.2).
func (b *Bridge) PurgeSession(ctx context.Context, sessionID string) (store.Purged, error) {
	if err := checkSessionID(sessionID, true); err != nil {
		return store.Purged{}, err
	}
	p, err := b.db.PurgeSessionData(ctx, sessionID)
	if err != nil {
		return store.Purged{}, storeErr(err, "sessionId")
	}
	return p, nil
}
