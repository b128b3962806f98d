package runner

import (
	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/runner/config"
	"github.com/hookside/hookside/truststore"
)

// Disable writes `"enabled": false` into the workspace file that declares
// d, if the file still holds d as reviewed (same digest at the same
// position): the review's disable_selected (config.Disable). userLimits
// is the session's UserLimits.
func Disable(d truststore.Declaration, userLimits hook.Limits) error {
	return config.Disable(d.Hook, userLimits, func(cur hook.Hook) bool { return truststore.Digest(cur) == d.Digest })
}
