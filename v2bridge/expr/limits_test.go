package expr

import (
	"reflect"
	"strings"
	"testing"
)

// TestValidateLimitsAreInclusive: the spec's limits (V §4: name 1–120 and
// description ≤ 2000 UTF-16 code units, all/any take 1–16 conditions) accept
// the limit itself.
func TestValidateLimitsAreInclusive(t *testing.T) {
	children := func(n int) []*Condition {
		cs := make([]*Condition, n)
		for i := range cs {
			cs[i] = leaf(OpEq, path("turn.id"), c("t1"))
		}
		return cs
	}
	for _, tc := range []struct {
		name string
		mut  func(d *Definition)
		ok   bool
	}{
		{"name_of_120", func(d *Definition) { d.Name = strings.Repeat("x", 120) }, true},
		{"name_of_1", func(d *Definition) { d.Name = "x" }, true},
		{"name_of_60_pairs_is_120_units", func(d *Definition) { d.Name = strings.Repeat("😀", 60) }, true},
		{"first_astral_character_counts_two", func(d *Definition) { d.Name = strings.Repeat("\U00010000", 61) }, false},
		{"last_bmp_character_counts_one", func(d *Definition) { d.Name = strings.Repeat("\uFFFF", 120) }, true},
		{"description_of_2000", func(d *Definition) { d.Description = strings.Repeat("x", 2000) }, true},
		{"sixteen_children", func(d *Definition) { d.Condition = &Condition{Op: OpAnd, Conditions: children(16)} }, true},
		{"one_child", func(d *Definition) { d.Condition = &Condition{Op: OpOr, Conditions: children(1)} }, true},
		{"no_children", func(d *Definition) { d.Condition = &Condition{Op: OpOr, Conditions: children(0)} }, false},
		{"seventeen_children", func(d *Definition) { d.Condition = &Condition{Op: OpAnd, Conditions: children(17)} }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := validDef()
			tc.mut(d)
			errs := 0
			for _, p := range Validate(d) {
				if p.Severity == SeverityError {
					errs++
				}
			}
			if (errs == 0) != tc.ok {
				t.Errorf("%d errors in %+v, want ok=%v", errs, Validate(d), tc.ok)
			}
		})
	}
}

// TestSummarizeArrayDepth: arrays count towards the summary depth as
// objects do (V §11.3).
func TestSummarizeArrayDepth(t *testing.T) {
	nest := func(n int, leaf any) any {
		v := leaf
		for range n {
			v = []any{v}
		}
		return v
	}
	if got := Summarize(nest(6, "leaf")); !reflect.DeepEqual(got, nest(6, "leaf")) {
		t.Errorf("depth 6: %#v", got)
	}
	if got, want := Summarize(nest(7, "leaf")), nest(7, DepthLimitValue); !reflect.DeepEqual(got, want) {
		t.Errorf("depth 7: %#v, want %#v", got, want)
	}
}

// TestStableStringifyOrdersKeysByUTF16: JavaScript sorts keys by UTF-16 code
// units, so U+10000 (high surrogate D800) sorts before U+E000.
func TestStableStringifyOrdersKeysByUTF16(t *testing.T) {
	got := StableStringify(map[string]any{"\uE000": 1.0, "\U00010000": 2.0})
	if want := `{"` + "\U00010000" + `":2,"` + "\uE000" + `":1}`; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
