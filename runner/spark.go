package runner

import (
	"os"
	"path/filepath"

	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/runner/config"
	"github.com/hookside/hookside/truststore"
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

// trustWorkspace digests the workspace scope the loader found: every
// declaration of every dialect goes through the same trust gate
// (spec/README.md: hookside closes the spark spec's blind spot of project
// files that run silently).
func trustWorkspace(found *config.Workspace) *truststore.Workspace {
	files := make([]truststore.SourceFile, len(found.Files))
	for i, f := range found.Files {
		files[i] = truststore.SourceFile{RelativePath: f.RelativePath, Content: f.Content}
	}
	return truststore.NewWorkspace(found.Root, found.Cwd, files, found.Hooks, found.Enabled)
}
