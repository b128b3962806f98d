// Package randid makes the random ids of hookside's records (runs,
// definitions, bindings, messages, reviews, events without a source id,
// lock tokens): a prefix and the 32 lowercase hex digits of a random
// (version 4) UUID from github.com/google/uuid, which reads crypto/rand.
package randid

import (
	"encoding/hex"

	"github.com/google/uuid"
)

// New returns prefix followed by 32 lowercase hex digits ("run_" →
// "run_3f0c…"). It panics only if the system's random source fails (as
// uuid.New does).
func New(prefix string) string {
	u := uuid.New()
	return prefix + hex.EncodeToString(u[:])
}

// UUID returns a random version 4 UUID in its canonical form
// (xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx).
func UUID() string { return uuid.NewString() }
