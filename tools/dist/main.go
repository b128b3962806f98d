// Command dist builds hookside's release artefacts reproducibly (`make dist`):
// one binary per target (CGO_ENABLED=0, -trimpath, empty build id, no VCS
// stamping, version and commit stamped with -ldflags), an archive per target
// (.tar.gz, .zip for Windows) holding the binary, README.md, LICENSE, the
// shell completions (completions/hookside.{bash,zsh,fish,ps1}) and the man
// pages (man/man1/hookside*.1, dated from the commit time) with fixed
// timestamps, owners, modes and order, SHA256SUMS over the archives,
// and one npm package per target holding only the binary
// (npm/<name>/package.json + bin/). With -npm-main DIR it also stages the
// main npm package (DIR, with its compiled lib/) under npm/hookside with the
// release version written into package.json and optionalDependencies on the
// platform packages built by this run.
//
// Usage:
//
//	go run ./tools/dist [-out dist] [-targets linux/amd64,...] [-npm-main packages/npm/hookside]
//
// The version is the VERSION file's semver, else the latest vX.Y.Z tag; a
// build of a commit that is not that tag (or of a dirty tree) is a
// prerelease: X.Y.Z-dev.N.gSHA (N = commits since the tag, or in the whole
// history without a tag), with ".dirty" appended for a dirty tree. Builds of
// the same commit with the same Go toolchain are byte-identical.
// `go run ./tools/dist -print-version` prints that version and exits:
// `make build` stamps it too, so every build of a commit says the same. A target
// that does not build makes dist fail (every target is tried, every failure
// named).
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
)

// DefaultTargets are the release targets (GOOS/GOARCH).
var DefaultTargets = []string{"linux/amd64", "linux/arm64", "darwin/amd64", "darwin/arm64", "windows/amd64", "windows/arm64"}

func main() {
	out := flag.String("out", "dist", "output directory (replaced)")
	targets := flag.String("targets", strings.Join(DefaultTargets, ","), "comma-separated GOOS/GOARCH list")
	npmMain := flag.String("npm-main", "", "stage this main npm package directory (with lib/ built) under <out>/npm/hookside")
	printVersion := flag.Bool("print-version", false, "print the version a build of this checkout is stamped with and exit (make build uses it)")
	flag.Parse()
	if *printVersion {
		if err := printVersionOf(""); err != nil {
			fmt.Fprintln(os.Stderr, "dist:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(*out, strings.Split(*targets, ","), *npmMain); err != nil {
		fmt.Fprintln(os.Stderr, "dist:", err)
		os.Exit(1)
	}
}

// release is what every artefact of one dist run shares.
type release struct {
	Version string
	Commit  string
	Epoch   int64 // commit time, seconds: the timestamp of every archive entry
	Root    string
}

func run(out string, targets []string, npmMain string) error {
	root, err := git("", "rev-parse", "--show-toplevel")
	if err != nil {
		return fmt.Errorf("not in a git checkout: %w", err)
	}
	rel, err := describe(root)
	if err != nil {
		return err
	}
	for _, t := range targets {
		if _, _, ok := strings.Cut(t, "/"); !ok {
			return fmt.Errorf("target %q: want GOOS/GOARCH", t)
		}
	}
	if err := os.RemoveAll(out); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(out, "npm"), 0o755); err != nil {
		return err
	}
	fmt.Printf("hookside %s (commit %s)\n", rel.Version, rel.Commit)
	var failed []error
	var archives, built []string
	bins := map[string]string{}
	for _, t := range targets {
		goos, goarch, _ := strings.Cut(t, "/")
		bin, err := build(rel, out, goos, goarch)
		if err != nil {
			failed = append(failed, err)
			continue
		}
		bins[t] = bin
	}
	// The completions and man pages come from the command tree, the same
	// on every target: this machine's binary writes them.
	docs, err := genDocs(rel, filepath.Join(out, "docs"), bins[runtime.GOOS+"/"+runtime.GOARCH])
	if err != nil {
		return err
	}
	for _, t := range targets {
		bin, ok := bins[t]
		if !ok {
			continue
		}
		goos, goarch, _ := strings.Cut(t, "/")
		a, err := writeArchive(rel, out, goos, goarch, bin, docs)
		if err != nil {
			return err
		}
		archives, built = append(archives, a), append(built, t)
		pkg, err := writePlatformPackage(rel, out, goos, goarch, bin)
		if err != nil {
			return err
		}
		st, _ := os.Stat(a)
		fmt.Printf("  %-14s %s (%d bytes), npm %s\n", t, filepath.Base(a), st.Size(), pkg)
	}
	if err := writeSums(out, archives); err != nil {
		return err
	}
	if npmMain != "" {
		if err := stageMainPackage(rel, out, npmMain, built); err != nil {
			return err
		}
	}
	if len(failed) > 0 {
		return fmt.Errorf("%d of %d targets do not build:\n%w", len(failed), len(targets), errors.Join(failed...))
	}
	return nil
}

// printVersionOf prints describe's version of the checkout holding dir
// ("" = the working directory) and a newline: the one version format of
// every build, `make build` (Makefile) as well as dist and npm.
func printVersionOf(dir string) error {
	root, err := git(dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return fmt.Errorf("not in a git checkout: %w", err)
	}
	rel, err := describe(root)
	if err != nil {
		return err
	}
	fmt.Println(rel.Version)
	return nil
}

var semverRE = regexp.MustCompile(`^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)$`)

// describe computes the release version and commit from git and VERSION.
func describe(root string) (release, error) {
	rel := release{Root: root}
	var err error
	if rel.Commit, err = git(root, "rev-parse", "HEAD"); err != nil {
		return rel, err
	}
	ct, err := git(root, "log", "-1", "--format=%ct", "HEAD")
	if err != nil {
		return rel, err
	}
	if rel.Epoch, err = strconv.ParseInt(ct, 10, 64); err != nil {
		return rel, fmt.Errorf("commit time %q: %w", ct, err)
	}
	tag, _ := git(root, "describe", "--tags", "--abbrev=0", "--match", "v[0-9]*.[0-9]*.[0-9]*", "HEAD")
	base := strings.TrimPrefix(tag, "v")
	if b, err := os.ReadFile(filepath.Join(root, "VERSION")); err == nil {
		base = strings.TrimSpace(string(b))
	}
	if base == "" {
		return rel, errors.New("no VERSION file and no vX.Y.Z tag")
	}
	if !semverRE.MatchString(base) {
		return rel, fmt.Errorf("version %q is not X.Y.Z", base)
	}
	exact := tag != "" && strings.TrimPrefix(tag, "v") == base
	if exact {
		if at, _ := git(root, "describe", "--tags", "--exact-match", "HEAD"); at != tag {
			exact = false
		}
	}
	status, err := git(root, "status", "--porcelain", "--untracked-files=no")
	if err != nil {
		return rel, err
	}
	dirty := status != ""
	if exact && !dirty {
		rel.Version = base
		return rel, nil
	}
	rangeSpec := "HEAD"
	if tag != "" {
		rangeSpec = tag + "..HEAD"
	}
	n, err := git(root, "rev-list", "--count", rangeSpec)
	if err != nil {
		return rel, err
	}
	rel.Version = fmt.Sprintf("%s-dev.%s.g%s", base, n, rel.Commit[:12])
	if dirty {
		rel.Version += ".dirty"
	}
	return rel, nil
}

// build compiles cmd/hookside for one target into out/bin/<goos>-<goarch>/.
func build(rel release, out, goos, goarch string) (string, error) {
	name := "hookside"
	if goos == "windows" {
		name += ".exe"
	}
	bin, err := filepath.Abs(filepath.Join(out, "bin", goos+"-"+goarch, name))
	if err != nil {
		return "", err
	}
	ldflags := fmt.Sprintf("-s -w -buildid= -X main.version=%s -X main.commit=%s", rel.Version, rel.Commit)
	cmd := exec.Command("go", "build", "-trimpath", "-buildvcs=false", "-ldflags", ldflags, "-o", bin, "./cmd/hookside")
	cmd.Dir = rel.Root
	cmd.Env = append(cleanEnv(), "CGO_ENABLED=0", "GOOS="+goos, "GOARCH="+goarch, "GOFLAGS=-mod=readonly")
	if b, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("%s/%s does not build: %v\n%s", goos, goarch, err, strings.TrimSpace(string(b)))
	}
	return bin, nil
}

// cleanEnv is the environment without the variables that would change the
// build (the target and the flags are set explicitly).
func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "GOOS", "GOARCH", "CGO_ENABLED", "GOFLAGS", "GOAMD64", "GOARM64", "GOEXPERIMENT", "GO_EXTLINK_ENABLED", "CC", "CXX":
			continue
		}
		env = append(env, kv)
	}
	return env
}

func git(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	b, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return "", fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(string(ee.Stderr)))
		}
		return "", err
	}
	return strings.TrimSpace(string(b)), nil
}
