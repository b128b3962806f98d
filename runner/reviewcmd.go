package runner

import (
	"path/filepath"
	"strings"

	"github.com/hookside/hookside/internal/fsid"
	"github.com/hookside/hookside/internal/home"
	"github.com/hookside/hookside/truststore"
)

// reviewCommandName is the command a printed review line starts with.
const reviewCommandName = "hookside hooks trust review"

// ReviewFlag is one flag of a printed `hookside hooks trust` command line
// (lifecycle-hooks-and-workspace-trust §"信任存在哪、怎样审查": 提示去跑 hooks
// trust review): --Name Value, or --Name alone when Bool is set. Path
// marks a value that is a file or directory, made absolute.
type ReviewFlag struct {
	Name, Value string
	Bool, Path  bool
}

// ReviewFlagText is flags as command-line text, in the order given: one
// " --name value" each (" --name" for a Bool flag), path values made
// absolute and every value quoted for a POSIX shell (ShellWord), so that
// the line pasted into another shell or directory acts on the same home,
// trust file and declarations. The CLI's hints and the session's review
// commands (trustNotice.reviewCommand, the CodePendingTrust diagnostic) are
// all built with it.
func ReviewFlagText(flags []ReviewFlag) string {
	var b strings.Builder
	for _, f := range flags {
		b.WriteString(" --")
		b.WriteString(f.Name)
		if f.Bool {
			continue
		}
		v := f.Value
		if f.Path && v != "" {
			if a, err := filepath.Abs(v); err == nil {
				v = a
			}
		}
		b.WriteByte(' ')
		b.WriteString(ShellWord(v))
	}
	return b.String()
}

// ShellWord quotes w for a POSIX shell when it holds anything but
// letters, digits and / . - _ : characters (or is empty).
func ShellWord(w string) string {
	if w != "" && strings.IndexFunc(w, func(r rune) bool {
		return !(r == '/' || r == '.' || r == '-' || r == '_' || r == ':' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	}) < 0 {
		return w
	}
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}

// ReviewCommand is the `hookside hooks trust review` line that reviews
// this session's workspace declarations in its trust file: --home unless
// the home is the platform's default (home.Builtin; a home from
// $HOOKSIDE_HOME or the host is named, the shell the line is pasted into
// may not have it), --user-config unless it is <home>/config.json,
// --profile unless zcode, --claude-home or --spark-user-dir unless the
// profile's default, --project-config, --policy unless user_decides,
// --hooks-enabled when the root switch's host layer is on, then
// --workspace and the session's workspace identity, then --cwd and the
// session directory when that is a subdirectory of the workspace
// directory (session/open cwd=<repo>/sub, workspaceId=<repo>): pins are
// resolved at the session's site (docs/protocol.md §4), so the review must
// run there to cover what this session admits.
func (s *Session) ReviewCommand() string {
	cmd := reviewCommandName + ReviewFlagText(s.reviewFlags()) + " --workspace " + ShellWord(s.opts.WorkspaceID)
	if d := s.ReviewCwd(); d != "" {
		cmd += " --cwd " + ShellWord(d)
	}
	return cmd
}

// ReviewCwd is the session directory, absolute, when it lies strictly
// inside the directory its workspace identity names (a plain or local:
// path; symlinks resolved as truststore.ResolveTarget does); "" otherwise.
func (s *Session) ReviewCwd() string {
	id := strings.TrimPrefix(s.opts.WorkspaceID, "local:")
	if s.opts.Cwd == "" || !filepath.IsAbs(id) {
		return ""
	}
	cwd, err := filepath.Abs(s.opts.Cwd)
	if err != nil {
		return ""
	}
	if rel, in := fsid.Within(truststore.CanonicalID(id), truststore.CanonicalID(cwd)); !in || rel == "." {
		return ""
	}
	return cwd
}

// RunReviewCwd is the --run-cwd of the review command for a claude-profile
// run whose input cwd is cwd: the run directory (RunDir) when cwd is
// absolute, resolves inside the workspace root and is not the session
// directory; "" otherwise (a run in the session directory is reviewed as
// the session is, and one elsewhere admits no workspace hook). The CLI's
// "Review them with" line appends it as the run's trustNotice does.
func (s *Session) RunReviewCwd(cwd string) string {
	if !filepath.IsAbs(cwd) {
		return ""
	}
	d, err := s.RunDir(cwd)
	if err != nil || sameDir(d, s.opts.Cwd) {
		return ""
	}
	return d
}

// reviewFlags lists the flags of ReviewCommand before --workspace, in the
// CLI's order (home, user-config, profile, user directory, project-config,
// policy, hooks-enabled).
func (s *Session) reviewFlags() []ReviewFlag {
	var out []ReviewFlag
	add := func(name, value string, path bool) {
		out = append(out, ReviewFlag{Name: name, Value: value, Path: path})
	}
	dir := s.opts.Workspace.Home
	if dir == "" {
		dir = home.Default()
	} else if !SamePath(dir, home.Builtin()) {
		add("home", dir, true)
	}
	if c := s.opts.UserConfigPath; c != "" && !SamePath(c, home.ConfigPath(dir)) {
		add("user-config", c, true)
	}
	if s.dialect.Name != "" && s.dialect.Name != ProfileZcode {
		add("profile", s.dialect.Name, false)
		flag := "spark-user-dir"
		if s.dialect.Name == ProfileClaude {
			flag = "claude-home"
		}
		if u := s.opts.UserDir; u != "" && !SamePath(u, DefaultUserDir(s.dialect)) {
			add(flag, u, true)
		}
	}
	if p := s.opts.Workspace.ProjectConfigPath; p != "" {
		add("project-config", p, true)
	}
	if p := s.gate.Policy(); p != "" && p != truststore.PolicyUserDecides {
		add("policy", string(p), false)
	}
	if s.opts.Workspace.HooksEnabled {
		out = append(out, ReviewFlag{Name: "hooks-enabled", Bool: true})
	}
	return out
}

// SamePath reports whether a and b name the same path once made absolute
// and clean (no file system access).
func SamePath(a, b string) bool {
	if x, err := filepath.Abs(a); err == nil {
		a = x
	}
	if y, err := filepath.Abs(b); err == nil {
		b = y
	}
	return a == b
}
