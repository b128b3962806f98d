package v2bridge

import (
	"testing"

	"github.com/hookside/hookside/v2bridge/expr"
)

// Blank is JavaScript's String.prototype.trim(): a BOM-only title is blank
// (fallback title), a U+0085-only body is not blank (sent as is) — the
// opposite of Go's strings.TrimSpace on both (hooks-v2-handbook §6.1).
func TestNotificationBlankIsJSTrim(t *testing.T) {
	env0 := expr.SampleEnvelope(expr.EventTurnCompleted)
	env := &env0
	for _, c := range []struct {
		title, body string
		wantTitle   string
		wantBody    *string
	}{
		{"\uFEFF", "\u0085", DefaultNotificationTitle(expr.EventTurnCompleted, ""), strp("\u0085")},
		{"\u0085", "\uFEFF \u3000", "\u0085", nil},
		{" \u2028\u00a0", "x", DefaultNotificationTitle(expr.EventTurnCompleted, ""), strp("x")},
	} {
		d := &expr.Definition{EventName: expr.EventTurnCompleted, Action: expr.Action{Type: expr.ActionNotification,
			Title: &expr.Value{Const: c.title, HasConst: true}, Body: &expr.Value{Const: c.body, HasConst: true}}}
		title, body, err := notificationText(d, env, "")
		if err != nil {
			t.Fatal(err)
		}
		if title != c.wantTitle || (body == nil) != (c.wantBody == nil) || (body != nil && *body != *c.wantBody) {
			t.Errorf("title %q body %q: got title %q body %v", c.title, c.body, title, body)
		}
	}
}

func strp(s string) *string { return &s }
