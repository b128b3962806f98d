package output

import (
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/hookside/hookside/internal/hook"
)

// jsLength is String.prototype.length: UTF-16 code units.
func jsLength(s string) int { return len(utf16.Encode([]rune(s))) }

func TestCutUTF16(t *testing.T) {
	tests := []struct {
		name string
		s    string
		n    int
		want string
	}{
		{"short_ascii_kept", "abc", 5, "abc"},
		{"ascii_cut", "abcdef", 4, "abcd"},
		{"exact_length_kept", "abcd", 4, "abcd"},
		{"bmp_counts_one", "ééé", 2, "éé"},
		{"astral_counts_two", "😀😀😀", 4, "😀😀"},
		{"pair_never_split", "a😀b", 2, "a"},
		{"pair_fits_exactly", "a😀b", 3, "a😀"},
		{"zero_is_empty", "abc", 0, ""},
		{"invalid_byte_counts_one", "a\xffb", 2, "a\xff"},
		{"mixed_bytes_and_units", "日本語😀", 4, "日本語"},
		{"last_bmp_character_counts_one", "\uFFFF\uFFFF", 1, "\uFFFF"},
		{"first_astral_character_counts_two", "\U00010000\U00010000", 3, "\U00010000"},
		{"short_multibyte_kept", "éé", 2, "éé"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := CutUTF16(tt.s, tt.n); got != tt.want {
				t.Errorf("CutUTF16(%q, %d) = %q, want %q", tt.s, tt.n, got, tt.want)
			}
		})
	}
}

// lifecycle-hooks-and-workspace-trust §"进程钩子的协议": responsePreview is
// responseText cut to 4000 characters, as JavaScript counts them.
func TestResponsePreviewIs4000UTF16Units(t *testing.T) {
	t.Run("bmp_text", func(t *testing.T) {
		got := ResponsePreview(strings.Repeat("é", 5000))
		if n := jsLength(got); n != 4000 {
			t.Errorf("length %d, want 4000", n)
		}
	})
	t.Run("astral_text_counts_pairs", func(t *testing.T) {
		got := ResponsePreview(strings.Repeat("😀", 3000))
		if n := utf8.RuneCountInString(got); n != 2000 {
			t.Errorf("%d emoji kept, want 2000 (4000 UTF-16 units)", n)
		}
	})
	t.Run("odd_offset_drops_the_pair", func(t *testing.T) {
		got := ResponsePreview("a" + strings.Repeat("😀", 3000))
		if n := jsLength(got); n != 3999 || !utf8.ValidString(got) {
			t.Errorf("length %d (valid %v), want 3999: the pair at the cut is left out", n, utf8.ValidString(got))
		}
	})
	t.Run("short_text_unchanged", func(t *testing.T) {
		s := strings.Repeat("a", 4000)
		if got := ResponsePreview(s); got != s {
			t.Errorf("4000-unit text was cut to %d", len(got))
		}
	})
}

// lifecycle-hooks-and-workspace-trust §"钩子输出怎样进模型上下文": session-event
// model context is cut to 24000 characters, as JavaScript counts them.
func TestModelContextIs24000UTF16Units(t *testing.T) {
	for _, ev := range []string{hook.SessionStart, hook.UserPromptSubmit, hook.Stop} {
		t.Run(ev, func(t *testing.T) {
			got := ModelContext(ev, []string{strings.Repeat("😀", 20000)})
			if n := jsLength(*got); n != 24000 && n != 23999 {
				t.Errorf("length %d UTF-16 units, want 24000 or 23999 (pair left out)", n)
			}
			if !utf8.ValidString(*got) {
				t.Error("cut split a character")
			}
			header := ev + " hook additional context:\n"
			if want := header + strings.Repeat("😀", (24000-len(header))/2); *got != want {
				t.Errorf("cut at %d units, want %d", jsLength(*got), jsLength(want))
			}
		})
	}
}

// lifecycle-hooks-and-workspace-trust §"Stop 与续跑上限": at most 3 Stop
// continuations per turn (MAX_STOP_HOOK_CONTINUATIONS). The runner's
// session default is this constant.
func TestStopContinuationLimitIsThree(t *testing.T) {
	if MaxStopContinuations != 3 {
		t.Fatalf("MaxStopContinuations = %d, want 3", MaxStopContinuations)
	}
	ask := Parse(hook.Stop, ProcessResult{ExitCode: 0, Stdout: []byte(`{"decision":"block","reason":"again"}`)})
	m := Merge(hook.Stop, []Answer{ask})
	for granted, want := range []bool{true, true, true, false} {
		if got := DecideStop([]Answer{ask}, m, granted, MaxStopContinuations).ContinueTurn; got != want {
			t.Errorf("after %d continuations ContinueTurn = %v, want %v", granted, got, want)
		}
	}
}
