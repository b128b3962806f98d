package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/hookside/hookside/internal/randid"
)

// The session mailbox (lifecycle-hooks-and-workspace-trust §"插件钩子与工作区钩子",
// last part): messages posted to a session id, delivered to the model by an
// internal hook on UserPromptSubmit, PostToolUse and Stop, at most
// MailboxBatch unread ones each time, oldest first. Messages belong to the
// session id, not to a connection or a process: every hookside process on
// the home sees them, and they survive restarts.

// Mailbox limits.
const (
	// MaxMessageBytes caps the text of one message (UTF-8 bytes).
	MaxMessageBytes = 16 * 1024
	// MaxFromBytes caps the sender label.
	MaxFromBytes = 256
	// MaxUnread caps the unread messages of one session: a post beyond it
	// is refused (ErrMailboxFull) until some are delivered.
	MaxUnread = 1000
	// MailboxBatch is how many unread messages one delivery takes
	// (session-mailbox.ts:44: 20).
	MailboxBatch = 20
)

// ErrMailboxFull: the session already holds MaxUnread unread messages. It
// wraps ErrInvalid (the RPC layer answers -32602).
var ErrMailboxFull = fmt.Errorf("%w: the session mailbox is full (%d unread messages)", ErrInvalid, MaxUnread)

// MailboxMessage is one message of a session mailbox.
type MailboxMessage struct {
	ID        string `json:"messageId"`
	SessionID string `json:"-"`
	From      string `json:"from"`
	Text      string `json:"text"`
	CreatedAt string `json:"createdAt"`
	// ReadAt is when the message was delivered; empty while unread.
	ReadAt string `json:"readAt,omitempty"`
}

// MailboxFieldError says which argument of PostMessage is wrong.
type MailboxFieldError struct {
	Field, Reason string
}

func (e *MailboxFieldError) Error() string { return e.Field + ": " + e.Reason }
func (e *MailboxFieldError) Unwrap() error { return ErrInvalid }

// MaxSessionIDBytes caps a session id on every mailbox and V2 method.
const MaxSessionIDBytes = 256

// CheckSessionID refuses an empty (when required) or over-long session id.
func CheckSessionID(sessionID string, required bool) error {
	switch {
	case sessionID == "" && required:
		return &MailboxFieldError{"sessionId", "required"}
	case len(sessionID) > MaxSessionIDBytes:
		return &MailboxFieldError{"sessionId", fmt.Sprintf("too long: %d bytes (at most %d)", len(sessionID), MaxSessionIDBytes)}
	}
	return nil
}

// unsafeLabelRune reports control characters (newlines included), bidi
// controls and line/paragraph separators: a sender label with them could
// forge the "Session mailbox message from …" header the model sees.
func unsafeLabelRune(r rune) bool {
	switch {
	case unicode.IsControl(r),
		r == 0x061C, r == 0x200E, r == 0x200F, r == 0x2028, r == 0x2029,
		0x202A <= r && r <= 0x202E, 0x2066 <= r && r <= 0x2069,
		r == 0x0085:
		return true
	}
	return false
}

func checkMessage(sessionID, from, text string) error {
	if err := CheckSessionID(sessionID, true); err != nil {
		return err
	}
	switch {
	case text == "":
		return &MailboxFieldError{"text", "required"}
	case len(text) > MaxMessageBytes:
		return &MailboxFieldError{"text", fmt.Sprintf("too long: %d bytes (at most %d)", len(text), MaxMessageBytes)}
	case !utf8.ValidString(text):
		return &MailboxFieldError{"text", "must be valid UTF-8"}
	case len(from) > MaxFromBytes:
		return &MailboxFieldError{"from", fmt.Sprintf("too long: %d bytes (at most %d)", len(from), MaxFromBytes)}
	case !utf8.ValidString(from):
		return &MailboxFieldError{"from", "must be valid UTF-8"}
	case strings.IndexFunc(from, unsafeLabelRune) >= 0:
		return &MailboxFieldError{"from", "must not contain control characters (newlines included) or bidi controls"}
	}
	return nil
}

// PostMessage appends a message to the mailbox of sessionID and returns it
// with the number of unread messages the session now has. A session that
// already holds MaxUnread unread messages refuses it (ErrMailboxFull);
// malformed arguments are *MailboxFieldError (both wrap ErrInvalid).
func (db *DB) PostMessage(ctx context.Context, sessionID, from, text string) (MailboxMessage, int, error) {
	if err := checkMessage(sessionID, from, text); err != nil {
		return MailboxMessage{}, 0, err
	}
	m := MailboxMessage{ID: randid.New("msg_"), SessionID: sessionID, From: from, Text: text}
	var unread int
	err := db.writeTx(ctx, func(tx *sql.Tx) error {
		m.CreatedAt = ts(db.now())
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM session_mailbox WHERE session_id = ? AND read_at IS NULL`,
			sessionID).Scan(&unread); err != nil {
			return err
		}
		if unread >= MaxUnread {
			return ErrMailboxFull
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO session_mailbox(id, session_id, sender, body, created_at) VALUES (?,?,?,?,?)`,
			m.ID, sessionID, from, text, m.CreatedAt); err != nil {
			return err
		}
		unread++
		return nil
	})
	if err != nil {
		return MailboxMessage{}, 0, err
	}
	return m, unread, nil
}

// HasUnread reports whether sessionID has an undelivered message (a read:
// never waits for the write lock).
func (db *DB) HasUnread(ctx context.Context, sessionID string) (bool, error) {
	var n int
	err := db.r.QueryRowContext(ctx, `SELECT count(*) FROM (SELECT 1 FROM session_mailbox
		WHERE session_id = ? AND read_at IS NULL LIMIT 1)`, sessionID).Scan(&n)
	return n > 0, mapErr(err)
}

// ListMessages returns the messages of sessionID, oldest first: all of them
// or, with unreadOnly, those not delivered yet. It does not mark anything
// read.
func (db *DB) ListMessages(ctx context.Context, sessionID string, unreadOnly bool) ([]MailboxMessage, error) {
	if err := CheckSessionID(sessionID, true); err != nil {
		return nil, err
	}
	q := `SELECT id, sender, body, created_at, read_at FROM session_mailbox WHERE session_id = ?`
	if unreadOnly {
		q += ` AND read_at IS NULL`
	}
	rows, err := db.r.QueryContext(ctx, q+` ORDER BY seq`, sessionID)
	if err != nil {
		return nil, mapErr(err)
	}
	defer rows.Close()
	out := []MailboxMessage{}
	for rows.Next() {
		m := MailboxMessage{SessionID: sessionID}
		var readAt sql.NullString
		if err := rows.Scan(&m.ID, &m.From, &m.Text, &m.CreatedAt, &readAt); err != nil {
			return nil, mapErr(err)
		}
		m.ReadAt = readAt.String
		out = append(out, m)
	}
	return out, mapErr(rows.Err())
}

// TakeUnread delivers up to n (MailboxBatch when n <= 0) unread messages of
// sessionID, oldest first: it returns them and marks them read in the same
// transaction, so two concurrent deliveries never hand out the same message
// and a failed commit delivers nothing. The rest wait for the next call.
func (db *DB) TakeUnread(ctx context.Context, sessionID string, n int) ([]MailboxMessage, error) {
	if err := CheckSessionID(sessionID, true); err != nil {
		return nil, err
	}
	if n <= 0 {
		n = MailboxBatch
	}
	var out []MailboxMessage
	err := db.writeTx(ctx, func(tx *sql.Tx) error {
		out = out[:0]
		now := ts(db.now())
		rows, err := tx.QueryContext(ctx, `SELECT seq, id, sender, body, created_at FROM session_mailbox
			WHERE session_id = ? AND read_at IS NULL ORDER BY seq LIMIT ?`, sessionID, n)
		if err != nil {
			return err
		}
		var last int64
		for rows.Next() {
			m := MailboxMessage{SessionID: sessionID, ReadAt: now}
			if err := rows.Scan(&last, &m.ID, &m.From, &m.Text, &m.CreatedAt); err != nil {
				rows.Close()
				return err
			}
			out = append(out, m)
		}
		if err := rows.Close(); err != nil {
			return err
		}
		if err := rows.Err(); err != nil {
			return err
		}
		if len(out) == 0 {
			return nil
		}
		_, err = tx.ExecContext(ctx, `UPDATE session_mailbox SET read_at = ?
			WHERE session_id = ? AND read_at IS NULL AND seq <= ?`, now, sessionID, last)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Purged reports what PurgeSessionData deleted.
type Purged struct {
	Runs     int `json:"runsDeleted"`
	Events   int `json:"eventsDeleted"`
	Messages int `json:"messagesDeleted"`
}

// PurgeSessionData deletes every run, event and mailbox message of
// sessionID in one transaction (hooks-v2-handbook §9.2: deleting a session
// is the cleanup path for its runs and events; hookside adds its mailbox)
// and returns the counts.
func (db *DB) PurgeSessionData(ctx context.Context, sessionID string) (Purged, error) {
	if sessionID == "" {
		return Purged{}, fmt.Errorf("%w: empty session id", ErrInvalid)
	}
	var p Purged
	err := db.writeTx(ctx, func(tx *sql.Tx) error {
		p = Purged{}
		del := func(q string, n *int) error {
			res, err := tx.ExecContext(ctx, q, sessionID)
			if err != nil {
				return err
			}
			c, _ := res.RowsAffected()
			*n = int(c)
			return nil
		}
		if err := del(`DELETE FROM hook_runs WHERE session_id = ?`, &p.Runs); err != nil {
			return err
		}
		if err := del(`DELETE FROM hook_events WHERE session_id = ?`, &p.Events); err != nil {
			return err
		}
		return del(`DELETE FROM session_mailbox WHERE session_id = ?`, &p.Messages)
	})
	if err != nil {
		return Purged{}, err
	}
	return p, nil
}
