package rpc

import (
	"testing"
	"time"
)

// TestReviewGoneSaysWhich: a review id that cannot be submitted says why —
// expired (also after it was swept by a later add), already used, or
// unknown — and the -32010 message names that case.
func TestReviewGoneSaysWhich(t *testing.T) {
	var rs reviewSet
	now := time.Now()
	rs.add(&review{id: "rev_a", expires: now.Add(ReviewTTL)}, now)
	rs.add(&review{id: "rev_b", expires: now.Add(ReviewTTL)}, now)
	rs.add(&review{id: "rev_c", expires: now.Add(ReviewTTL)}, now)
	if r, why := rs.get("rev_a", now); r == nil || why != "" {
		t.Fatalf("open review: %v %q", r, why)
	}
	rs.use("rev_a")
	later := now.Add(ReviewTTL + time.Second)
	rs.add(&review{id: "rev_d", expires: later.Add(ReviewTTL)}, later) // sweeps rev_c
	for id, want := range map[string]string{"rev_a": "used", "rev_b": "expired", "rev_c": "expired", "rev_x": "unknown"} {
		if r, why := rs.get(id, later); r != nil || why != want {
			t.Errorf("%s: %v %q, want %q", id, r, why, want)
		}
	}
	for why, msg := range map[string]string{
		"expired": `review "r" expired (a review lasts 10 minutes): start a new review`,
		"used":    `review "r" was already submitted (a review is single-use): start a new review`,
		"unknown": `review "r" is unknown on this connection: start a new review`,
	} {
		if e := reviewGone("r", why); e.Code != CodeReviewExpired || e.Message != msg {
			t.Errorf("%s: %d %q, want %q", why, e.Code, e.Message, msg)
		}
	}
	// Gone ids are forgotten after goneTTL.
	much := later.Add(goneTTL + time.Second)
	rs.add(&review{id: "rev_e", expires: much.Add(ReviewTTL)}, much)
	if _, why := rs.get("rev_a", much); why != "unknown" {
		t.Errorf("after goneTTL: %q", why)
	}
}
