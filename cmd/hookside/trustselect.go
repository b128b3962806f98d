package main

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// minDigestPrefix is the shortest digest prefix `hooks trust` accepts;
// shorter all-digit arguments are list numbers.
const minDigestPrefix = 6

// digestLen is the length of a full declaration digest (hex SHA-256).
const digestLen = 64

// digestSyntaxError is a --digest or --bundle-digest value that is none of
// the forms the flag accepts (parseDigestArg, parseBundleDigest): a usage
// error (exit 2), where a well-formed one that names nothing, or a bundle
// digest that is not the workspace's now, is an error (exit 1).
type digestSyntaxError struct{ msg string }

func (e *digestSyntaxError) Error() string { return e.msg }

// digestForms is what --digest accepts, the tail of its usage errors.
const digestForms = "want a list number from status (1, 2, …: decimal digits, no sign, no leading zero), " +
	"a full digest (64 hex characters, 0-9 and a-f, as status prints it) or a unique prefix of a digest, at least 6 hex characters long"

// bundleDigestForms is what --bundle-digest accepts, the tail of its usage
// errors.
const bundleDigestForms = "want the bundle digest as status or review prints it: 64 hex characters, 0-9 and a-f, in full (a prefix is not enough)"

// hexFlag is a flag whose value is a hex SHA-256 digest or a prefix of
// one: its name, what its value is called in messages, the fewest hex
// characters it takes and the accepted forms (the tail of its errors).
type hexFlag struct {
	name, noun string // "--digest", "digest"
	whole      string // the value in full: "declaration digest"
	spaced     string // what white space is not part of: "list number or a digest"
	min        int
	short      string // why a value below min is refused, with %d for its length and for min
	forms      string
}

var (
	digestFlag = hexFlag{name: "--digest", noun: "digest", whole: "declaration digest", spaced: "list number or a digest", min: minDigestPrefix,
		short: "too short for a digest prefix: %d hex characters, a prefix has at least %d", forms: digestForms}
	bundleDigestFlag = hexFlag{name: "--bundle-digest", noun: "bundle digest", whole: "bundle digest", spaced: "bundle digest", min: digestLen,
		short: "too short for a bundle digest: %d hex characters, a bundle digest has %d", forms: bundleDigestForms}
)

// bad is the *digestSyntaxError of f's value a: the value quoted (so white
// space shows), what is wrong with it and f's accepted forms.
func (f hexFlag) bad(a, format string, args ...any) error {
	return &digestSyntaxError{fmt.Sprintf("%s %q: %s; %s", f.name, a, fmt.Sprintf(format, args...), f.forms)}
}

// parseHex reads a, a value of f, as f.min to 64 hex characters, either
// case, and returns it lowercased. Anything else is a *digestSyntaxError
// (hexFlag.bad): an empty value, white space anywhere, a "sha256:" prefix,
// a character that is not hex, more than 64 hex characters, fewer than
// f.min.
func (f hexFlag) parseHex(a string) (string, error) {
	if a == "" {
		return "", f.bad(a, "empty")
	}
	if strings.ContainsFunc(a, unicode.IsSpace) {
		return "", f.bad(a, "white space is not part of a %s", f.spaced)
	}
	h := strings.ToLower(a)
	if strings.HasPrefix(h, "sha256:") {
		return "", f.bad(a, "malformed %s: a %s is written without the sha256: prefix", f.noun, f.whole)
	}
	if i := strings.IndexFunc(h, func(r rune) bool { return !strings.ContainsRune("0123456789abcdef", r) }); i >= 0 {
		r, _ := utf8.DecodeRuneInString(a[i:])
		return "", f.bad(a, "malformed %s: %q (character %d) is not a hex character", f.noun, r, utf8.RuneCountInString(a[:i])+1)
	}
	if len(h) > digestLen {
		return "", f.bad(a, "malformed %s: %d hex characters, a %s has %d", f.noun, len(h), f.noun, digestLen)
	}
	if len(h) < f.min {
		return "", f.bad(a, f.short, len(h), f.min)
	}
	return h, nil
}

// parseBundleDigest reads a --bundle-digest value: exactly 64 hex
// characters, either case, returned lowercased; anything else is a
// *digestSyntaxError (a usage error) naming the value, what is wrong with
// it and the accepted form, as parseDigestArg does for --digest. Whether
// it is the workspace's bundle digest now is the caller's question (a
// stale one is exit 1).
func parseBundleDigest(a string) (string, error) { return bundleDigestFlag.parseHex(a) }

// resolveDigests turns each --digest argument into a full digest: a list
// number N (1-based, as `hooks trust status` numbers listed) names listed[N-1];
// a full digest or a unique prefix of at least minDigestPrefix hex
// characters names the one digest among listed and known it starts. With
// keep (revoke), a hex argument matching nothing is kept as given (revoke
// reports it unknown); otherwise a full digest is kept and a shorter one is
// an error. An ambiguous prefix is an error naming the candidates; an
// argument of none of these forms is a *digestSyntaxError (parseDigestArg).
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

// isListNumber reports whether the --digest argument a, one parseDigestArg
// accepts, is a list number (shorter than a digest prefix, decimal digits
// only).
func isListNumber(a string) bool {
	return len(a) < minDigestPrefix && a != "" && strings.Trim(a, "0123456789") == ""
}

// parseDigestArg reads one --digest argument as exactly one of the
// accepted forms: a list number (returned as n, hex ""), written as
// decimal digits without sign or leading zero and shorter than a digest
// prefix; or a digest or digest prefix (returned as hex, lowercased): 6 to
// 64 hex characters, either case (digestFlag.parseHex). Anything else is a
// *digestSyntaxError naming the value (quoted, so white space shows), what
// is wrong with it and the accepted forms: white space anywhere, an empty
// value, a sign, a leading zero, a "sha256:" prefix, a character that is
// not hex, more than 64 hex characters, fewer than 6 that are not a list
// number.
func parseDigestArg(a string) (n int, hex string, err error) {
	if isListNumber(a) {
		if len(a) > 1 && a[0] == '0' {
			return 0, "", digestFlag.bad(a, "a list number has no leading zero")
		}
		n, _ := strconv.Atoi(a)
		return n, "", nil
	}
	if len(a) > 1 && (a[0] == '+' || a[0] == '-') && strings.Trim(a[1:], "0123456789") == "" {
		return 0, "", digestFlag.bad(a, "a list number has no sign")
	}
	h, err := digestFlag.parseHex(a)
	return 0, h, err
}

func resolveDigest(a string, listed, pool []string, keep bool) (string, error) {
	n, h, err := parseDigestArg(a)
	if err != nil {
		return "", err
	}
	if h == "" {
		if n < 1 || n > len(listed) {
			return "", fmt.Errorf("--digest %s: no declaration number %d (the list has %d; see `hookside hooks trust status`)", a, n, len(listed))
		}
		return listed[n-1], nil
	}
	var hits []string
	for _, d := range pool {
		if strings.HasPrefix(d, h) {
			hits = append(hits, d)
		}
	}
	switch {
	case len(hits) == 1:
		return hits[0], nil
	case len(hits) > 1:
		return "", fmt.Errorf("--digest %s is ambiguous: it starts %s; give more characters", h, strings.Join(hits, ", "))
	case len(h) == digestLen || keep:
		return h, nil
	}
	return "", fmt.Errorf("--digest %s: no declaration or trust record digest starts so (see `hookside hooks trust status`)", h)
}

// digestExit is the exit status of a resolveDigests error.
func digestExit(err error) int {
	if _, ok := errors.AsType[*digestSyntaxError](err); ok {
		return exitUsage
	}
	return exitError
}
