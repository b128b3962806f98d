//go:build unix && !linux

package exec

import "context"

// Run runs one hook process and always returns by
// Timeout + KillGrace + PipeDrainTimeout (plus scheduling slack), with no
// process of the hook's group left and no goroutine of its own left; see
// runPortable for how.
func Run(ctx context.Context, spec Spec) Result { return runPortable(ctx, spec) }
