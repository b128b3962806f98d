package runner

import (
	"os"
	"path/filepath"

	"github.com/hookside/hookside/internal/hook"
)

// Profiles (PROTOCOL.md §2 session/open.profile).
const (
	ProfileZcode = "zcode"
	ProfileSpark = "spark"
)

// ReasonEarlierBlock is the reason of a run skipped because an earlier hook
// of the same event blocked, in the spark dialect (hooks-v2-handbook §1.3:
// 任一条被拦截就立即返回，不再执行后续 hook).
const ReasonEarlierBlock = "earlier_block"

// DefaultSparkUserDir is ~/.spark, or "" when the home directory is unknown.
func DefaultSparkUserDir() string {
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return ""
	}
	return filepath.Join(home, hook.Spark.UserDir)
}
