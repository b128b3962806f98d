package main

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/hookside/hookside/runner"
	"github.com/spf13/pflag"
)

// minDigestPrefix is the shortest digest prefix `hooks trust` accepts;
// shorter all-digit arguments are list numbers.
const minDigestPrefix = 6

// digestLen is the length of a full declaration digest (hex SHA-256).
const digestLen = 64

// errDigestSyntax marks a --digest argument that is none of the accepted
// forms: a usage error (exit 2), where a well-formed one that names
// nothing is an error (exit 1).
var errDigestSyntax = errors.New("usage")

// resolveDigests turns each --digest argument into a full digest: a list
// number N (1-based, as `hooks trust status` numbers listed) names listed[N-1];
// a full digest or a unique prefix of at least minDigestPrefix hex
// characters names the one digest among listed and known it starts. With
// keep (revoke), a hex argument matching nothing is kept as given (revoke
// reports it unknown); otherwise a full digest is kept and a shorter one is
// an error. An ambiguous prefix is an error naming the candidates.
func resolveDigests(args, listed, known []string, keep bool) ([]string, error) {
	pool := make([]string, 0, len(listed)+len(known))
	seen := map[string]bool{}
	for _, d := range append(append([]string{}, listed...), known...) {
		if !seen[d] {
			seen[d] = true
			pool = append(pool, d)
		}
	}
	out := make([]string, 0, len(args))
	for _, a := range args {
		d, err := resolveDigest(a, listed, pool, keep)
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, nil
}

// isListNumber reports whether the --digest argument a is a list number
// (shorter than a digest prefix, decimal digits only).
func isListNumber(a string) bool {
	a = strings.TrimSpace(a)
	return len(a) < minDigestPrefix && a != "" && strings.Trim(a, "0123456789") == ""
}

func resolveDigest(a string, listed, pool []string, keep bool) (string, error) {
	a = strings.ToLower(strings.TrimSpace(a))
	if isListNumber(a) {
		n, _ := strconv.Atoi(a)
		if n < 1 || n > len(listed) {
			return "", fmt.Errorf("--digest %s: no declaration number %d (the list has %d; see `hookside hooks trust status`)", a, n, len(listed))
		}
		return listed[n-1], nil
	}
	if strings.Trim(a, "0123456789abcdef") != "" || len(a) < minDigestPrefix && !keep {
		return "", fmt.Errorf("%w: --digest %q: want a list number, a full digest or a prefix of at least %d hex characters", errDigestSyntax, a, minDigestPrefix)
	}
	var hits []string
	for _, d := range pool {
		if strings.HasPrefix(d, a) {
			hits = append(hits, d)
		}
	}
	switch {
	case len(hits) == 1:
		return hits[0], nil
	case len(hits) > 1:
		return "", fmt.Errorf("--digest %s is ambiguous: it starts %s; give more characters", a, strings.Join(hits, ", "))
	case len(a) == digestLen || keep:
		return a, nil
	}
	return "", fmt.Errorf("--digest %s: no declaration or trust record digest starts so (see `hookside hooks trust status`)", a)
}

// hintFlags is the flags of the command line in use that locate the
// session, the store and the declarations (--home, --user-config,
// --profile, --spark-user-dir, --claude-home, --project-config, --policy,
// --hooks-enabled), with paths made absolute, so that a printed command
// line pasted elsewhere acts on the same store and workspace. The workspace
// is added by the caller.
func hintFlags(fs *pflag.FlagSet) string {
	paths := map[string]bool{"home": true, "user-config": true, "spark-user-dir": true, "claude-home": true, "project-config": true}
	var flags []runner.ReviewFlag
	for _, name := range []string{"home", "user-config", "profile", "spark-user-dir", "claude-home", "project-config", "policy", "hooks-enabled"} {
		f := fs.Lookup(name)
		if f == nil || !f.Changed {
			continue
		}
		v := f.Value.String()
		if f.Value.Type() == "bool" {
			if v == "true" {
				flags = append(flags, runner.ReviewFlag{Name: name, Bool: true})
			}
			continue
		}
		flags = append(flags, runner.ReviewFlag{Name: name, Value: v, Path: paths[name]})
	}
	return runner.ReviewFlagText(flags)
}

// digestExit is the exit status of a resolveDigests error.
func digestExit(err error) int {
	if errors.Is(err, errDigestSyntax) {
		return exitUsage
	}
	return exitError
}
