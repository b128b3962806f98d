package main

import (
	"path/filepath"

	"github.com/spf13/pflag"

	"github.com/hookside/hookside/internal/home"
	"github.com/hookside/hookside/runner"
)

// hintScope is what a printed command line selects besides the store and
// the declarations, so hintFlags repeats only flags that command takes.
type hintScope int

const (
	// hintTrust: a `hookside hooks trust …` line; the caller adds its
	// --workspace (and --cwd, --run-cwd).
	hintTrust hintScope = iota
	// hintSession: a `hookside hooks explain|list|run` line; the session
	// directory and workspace (--cwd, --workspace), the plugin roots
	// (--plugin-dir) and --workspace-hooks=false are repeated too.
	hintSession
)

// hintFlags is the text of the flags of the command line in use (fs) that
// select its configuration, for a printed hookside command line of scope
// to paste elsewhere and act on the same home, trust file, declarations
// and, for hintSession, the same workspace: " --home DIR" (given, or
// $HOOKSIDE_HOME when that is not the platform's default home: the shell
// the line is pasted into may not have it, as Session.ReviewCommand
// decides), then in this order those given of --user-config, --plugin-dir
// (each; hintSession), --profile, --spark-user-dir, --claude-home,
// --project-config, --policy, --hooks-enabled, --workspace-hooks=false,
// --cwd and --workspace (hintSession). Paths are made absolute and every
// value is quoted for a POSIX shell (runner.ReviewFlagText).
func hintFlags(fs *pflag.FlagSet, to hintScope) string {
	paths := map[string]bool{"home": true, "user-config": true, "plugin-dir": true, "spark-user-dir": true,
		"claude-home": true, "project-config": true, "cwd": true}
	names := []string{"home", "user-config", "profile", "spark-user-dir", "claude-home", "project-config", "policy", "hooks-enabled"}
	if to == hintSession {
		names = []string{"home", "user-config", "plugin-dir", "profile", "spark-user-dir", "claude-home", "project-config",
			"policy", "hooks-enabled", "workspace-hooks", "cwd", "workspace"}
	}
	var flags []runner.ReviewFlag
	for _, name := range names {
		f := fs.Lookup(name)
		switch {
		case f == nil:
			continue
		case name == "home" && !f.Changed:
			if d := home.Default(); !runner.SamePath(d, home.Builtin()) {
				flags = append(flags, runner.ReviewFlag{Name: name, Value: d, Path: true})
			}
			continue
		case !f.Changed:
			continue
		case name == "plugin-dir":
			if m, ok := f.Value.(*multiFlag); ok {
				for _, d := range *m {
					flags = append(flags, runner.ReviewFlag{Name: name, Value: d, Path: true})
				}
			}
			continue
		case f.Value.Type() == "bool":
			switch v := f.Value.String(); {
			case v == "true" && f.DefValue == "false":
				flags = append(flags, runner.ReviewFlag{Name: name, Bool: true})
			case v == "false" && f.DefValue == "true":
				flags = append(flags, runner.ReviewFlag{Name: name + "=false", Bool: true})
			}
			continue
		}
		v := f.Value.String()
		if name == "workspace" && localPath(v) {
			// A directory as --workspace takes it; an identity
			// (remote:…) is kept as given.
			flags = append(flags, runner.ReviewFlag{Name: name, Value: v, Path: true})
			continue
		}
		flags = append(flags, runner.ReviewFlag{Name: name, Value: v, Path: paths[name]})
	}
	return runner.ReviewFlagText(flags)
}

// localPath reports whether a --workspace value is a path (made absolute
// in a hint) rather than a workspace identity ("local:/x", "ssh:host/x").
func localPath(v string) bool {
	if v == "" || filepath.IsAbs(v) {
		return v != ""
	}
	for _, r := range v {
		switch {
		case r == ':':
			return false
		case r == '/' || r == '\\':
			return true
		}
	}
	return true
}

// givenTarget is the hint of a usage error found before the workspace is
// resolved: the flags in use (hintFlags) and the --workspace and --cwd as
// given, a directory made absolute.
func givenTarget(o *trustOptions, sessionDir string) string {
	hint := hintFlags(o.flags, hintTrust)
	for _, f := range []struct{ name, v string }{{"workspace", o.workspace}, {"cwd", sessionDir}} {
		if f.v == "" {
			continue
		}
		v := f.v
		if localPath(v) {
			if a, err := filepath.Abs(v); err == nil {
				v = a
			}
		}
		hint += " --" + f.name + " " + hintWord(v)
	}
	return hint
}
