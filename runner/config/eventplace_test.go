package config

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hookside/hookside/internal/hook"
)

// TestEventHintOtherProfile: an event of Claude Code's dialect that the
// zcode events lack is named as a Claude Code event (also when given with
// whitespace or in another case: "did you mean" it first), with the
// remedy of the place it was given; an event of the seven is never taken
// for a misspelling of another (Setup is not Stop). A spark or Claude
// Code settings file gets no such hint.
func TestEventHintOtherProfile(t *testing.T) {
	const choose = ` profile (--profile claude, or "profile": "claude" in session/open)`
	for _, tc := range []struct {
		name string
		at   EventPlace
		want string
	}{
		{"Notification", EventFlag, "; Notification is a Claude Code event: use --profile claude"},
		{"Setup", EventFlag, "; Setup is a Claude Code event: use --profile claude"},
		{"SubagentStop", EventFlag, "; SubagentStop is a Claude Code event: use --profile claude"},
		{"notification", EventFlag, "; did you mean Notification? Notification is a Claude Code event: use --profile claude"},
		{"PreCompact ", EventFlag, "; did you mean PreCompact? PreCompact is a Claude Code event: use --profile claude"},
		{"Notificaton", EventFlag, "; did you mean Notification? Notification is a Claude Code event: use --profile claude"},
		{"Notification", EventParam, `; Notification is a Claude Code event: open the session with "profile": "claude" in session/open`},
		{"Notification", EventConfigKey, "; Notification is a Claude Code event: declare it in Claude Code's settings (~/.claude/settings.json or .claude/settings.json) and use the claude" + choose},
		{"Notification", EventPluginKey, "; Notification is a Claude Code event: it runs under the claude" + choose},
		{"Notification", EventSettingsKey, ""},
		{"Stup", EventFlag, "; did you mean Stop?"},
		{"Bogus", EventFlag, ""},
		{"Sopt", EventParam, ""},
	} {
		if got := EventHint(tc.name, hook.Events, tc.at); got != tc.want {
			t.Errorf("EventHint(%q, zcode, %d):\n got %q\nwant %q", tc.name, tc.at, got, tc.want)
		}
	}
	// A list lacking zcode events (spark's four): an exact name is looked
	// up in every profile before any misspelling, zcode's first, so
	// SessionStart is a zcode event and Setup (Stop's neighbour) Claude
	// Code's.
	if got, want := EventHint("SessionStart", hook.Spark.Events, EventPluginKey), `; SessionStart is a zcode event: it runs under the zcode profile (--profile zcode, or "profile": "zcode" in session/open)`; got != want {
		t.Errorf("spark plugin SessionStart: %q, want %q", got, want)
	}
	if got, want := EventHint("Setup", hook.Spark.Events, EventPluginKey), "; Setup is a Claude Code event: it runs under the claude"+choose; got != want {
		t.Errorf("spark plugin Setup: %q, want %q", got, want)
	}
}

// TestEventHintReverse: every zcode event is a Claude Code event, so
// under the claude profile no name gets the other-profile hint; were one
// missing from the claude list, it would be named as a zcode event.
func TestEventHintReverse(t *testing.T) {
	for _, e := range hook.Events {
		if !slices.Contains(hook.ClaudeEvents, e) {
			t.Fatalf("%s is a zcode event Claude Code lacks: the claude profile's --event and hooks/run now get the zcode hint; document it", e)
		}
	}
	for _, name := range []string{"Bogus", "Notificatoin", "stop "} {
		if got := EventHint(name, hook.ClaudeEvents, EventFlag); strings.Contains(got, " event: ") {
			t.Errorf("claude %q: %q names another profile", name, got)
		}
	}
	known := slices.DeleteFunc(slices.Clone(hook.ClaudeEvents), func(e string) bool { return e == hook.Stop })
	if got, want := EventHint("Stop", known, EventFlag), "; Stop is a zcode event: use --profile zcode"; got != want {
		t.Errorf("Stop outside known: %q, want %q", got, want)
	}
}

// TestConfigEventOfClaudeCode: a Claude Code event declared in a hookside
// config file, or in a plugin's hooks.json under the zcode profile, is
// dropped with a message that quotes it and says where it runs; the same
// in a spark settings file only says it is not a spark event.
func TestConfigEventOfClaudeCode(t *testing.T) {
	dir := t.TempDir()
	read := func(name, doc string) (string, []byte) {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return path, data
	}
	one := func(t *testing.T, diags []hook.Diagnostic, code string) string {
		t.Helper()
		if len(diags) != 1 || diags[0].Code != code {
			t.Fatalf("diagnostics %+v, want one %s", diags, code)
		}
		return diags[0].Message
	}

	path, data := read("config.json", `{"hooks": {"events": {"Notification": [{"hooks": [{"type": "command", "command": "true"}]}], "Stop ": []}}}`)
	f, diags := ParseFile(path, data, hook.SourceUser)
	if len(f.Hooks) != 0 || len(diags) != 2 {
		t.Fatalf("zcode file: hooks %d, diagnostics %+v", len(f.Hooks), diags)
	}
	if got, want := diags[0].Message, `unknown event "Notification" (events are `+strings.Join(hook.Events, ", ")+`, case-sensitive); its hooks are dropped; Notification is a Claude Code event: declare it in Claude Code's settings (~/.claude/settings.json or .claude/settings.json) and use the claude profile (--profile claude, or "profile": "claude" in session/open)`; got != want {
		t.Errorf("zcode file:\n got %s\nwant %s", got, want)
	}
	if got := diags[1].Message; !strings.HasPrefix(got, `unknown event "Stop " (`) || !strings.HasSuffix(got, "; did you mean Stop?") {
		t.Errorf("zcode file, \"Stop \": %s", got)
	}

	path, data = read("plugin/hooks/hooks.json", `{"hooks": {"PreCompact": [{"hooks": [{"type": "command", "command": "true"}]}]}}`)
	hooks, diags := ParsePluginFile(filepath.Join(dir, "plugin"), path, data)
	msg := one(t, diags, hook.CodePluginUnsupportedEvent)
	if want := `; PreCompact is a Claude Code event: it runs under the claude profile (--profile claude, or "profile": "claude" in session/open)`; len(hooks) != 0 || !strings.HasPrefix(msg, `event "PreCompact" is not supported`) || !strings.HasSuffix(msg, want) {
		t.Errorf("plugin: hooks %d, message %s; want the hint %s", len(hooks), msg, want)
	}

	path, data = read(".spark/settings.json", `{"hooks": {"Notification": [{"hooks": [{"type": "command", "command": "true"}]}]}}`)
	_, diags = ParseSettingsFile(hook.Spark, path, data, hook.SourceUser)
	if msg := one(t, diags, hook.CodeSparkUnsupportedEvent); !strings.HasSuffix(msg, "its hooks are skipped") {
		t.Errorf("spark settings: %s, want no hint", msg)
	}
}
