package output

import (
	"strings"
	"testing"

	"github.com/hookside/hookside/internal/hook"
)

// TestClaudeCapNotice: a run whose stdout or stderr reached the cap gets a
// CapNotice naming the cap in bytes, merged into hookErrors; cut plain
// stdout context ends with CutMarker, and OversizedNotice then says
// "more than N characters" and that the file holds the part kept.
func TestClaudeCapNotice(t *testing.T) {
	r := ProcessResult{ExitCode: 2, Stdout: []byte(strings.Repeat("o", 64)), StdoutTruncated: true,
		Stderr: []byte(strings.Repeat("e", 64)), StderrTruncated: true}
	a := ParseClaude(hook.PreToolUse, r)
	want := "output_truncated: stdout reached the output cap of 64 bytes and stderr reached the output cap of 64 bytes (maxOutputBytes); the rest was discarded"
	if a.CapNotice != want {
		t.Errorf("CapNotice %q, want %q", a.CapNotice, want)
	}
	if m := MergeClaude(hook.PreToolUse, "Bash", []ClaudeAnswer{a}); !m.Blocked || len(m.HookErrors) != 1 || m.HookErrors[0] != want {
		t.Errorf("merged blocked=%v hookErrors %q", m.Blocked, m.HookErrors)
	}
	if a := ParseClaude(hook.PreToolUse, ProcessResult{Stdout: []byte("{}")}); a.CapNotice != "" {
		t.Errorf("uncut run has CapNotice %q", a.CapNotice)
	}

	text := strings.Repeat("a", ClaudeOutputLimit+5)
	a = ParseClaude(hook.UserPromptSubmit, ProcessResult{Stdout: []byte(text), StdoutTruncated: true})
	if len(a.AdditionalContext) != 1 || a.AdditionalContext[0] != text+CutMarker(len(text)) {
		t.Fatalf("context %.80q…", a.AdditionalContext)
	}
	m := MergeClaude(hook.UserPromptSubmit, "", []ClaudeAnswer{a})
	var saved string
	m.SpillOversized(func(s string) (string, error) { saved = s; return "/h/hook-output-1.txt", nil })
	if !strings.HasSuffix(saved, "[hookside: output cut at the 10005-byte output cap; the rest was discarded]") {
		t.Errorf("saved text does not say it was cut: …%q", saved[len(saved)-90:])
	}
	if wantN := "Hook output too large (more than 10005 characters: cut at hookside's output cap); the part kept is in /h/hook-output-1.txt\n"; !strings.HasPrefix(m.AdditionalContext[0], wantN) {
		t.Errorf("notice %.160q, want prefix %q", m.AdditionalContext[0], wantN)
	}
	if n := OversizedNotice("/p", strings.Repeat("é", 50000)); !strings.HasPrefix(n, "Hook output too large (50000 characters); the full text is in /p\n") {
		t.Errorf("notice %.100q", n)
	}
}
