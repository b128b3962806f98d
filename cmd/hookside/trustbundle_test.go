package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestParseBundleDigest: a --bundle-digest value is exactly 64 hex
// characters (either case, returned lowercased); everything else is a
// *digestSyntaxError naming the value quoted, what is wrong and the
// accepted form, the checks --digest's hex values get (hexFlag.parseHex).
func TestParseBundleDigest(t *testing.T) {
	full := strings.Repeat("ab", 32)
	for _, tc := range []struct {
		arg, want string
		why       string // "" = accepted
	}{
		{arg: full, want: full},
		{arg: strings.ToUpper(full), want: full},
		{arg: "", why: "empty"},
		{arg: "nothex", why: "malformed bundle digest: 'n' (character 1) is not a hex character"},
		{arg: full + " ", why: "white space is not part of a bundle digest"},
		{arg: " " + full, why: "white space is not part of a bundle digest"},
		{arg: "sha256:" + full, why: "a bundle digest is written without the sha256: prefix"},
		{arg: full + "0", why: "malformed bundle digest: 65 hex characters, a bundle digest has 64"},
		{arg: full[:63], why: "too short for a bundle digest: 63 hex characters, a bundle digest has 64"},
		{arg: full[:6], why: "too short for a bundle digest: 6 hex characters"},
		{arg: "1", why: "too short for a bundle digest: 1 hex characters"},
		{arg: full[:63] + "g", why: "'g' (character 64) is not a hex character"},
	} {
		got, err := parseBundleDigest(tc.arg)
		if tc.why == "" {
			if err != nil || got != tc.want {
				t.Errorf("parseBundleDigest(%q) = %q, %v; want %q", tc.arg, got, err, tc.want)
			}
			continue
		}
		checkDigestSyntaxError(t, "--bundle-digest", tc.arg, err, tc.why, bundleDigestForms)
	}
}

// TestTrustBundleDigestMalformedIsUsage: every command taking
// --bundle-digest (grant with --all or --digest, and `hooks trust` without
// an action, which takes every flag) refuses a malformed one with exit 2
// naming it and writes nothing; a well-formed one that is not the
// workspace's now stays exit 1; the workspace's own, in either case, grants.
func TestTrustBundleDigestMalformedIsUsage(t *testing.T) {
	e := newTrustEnv(t)
	st := e.status(t)
	trustFile := filepath.Join(e.home, "security", "workspace-hook-trust-v1.json")
	for _, bad := range []string{"nothex", "", " ", st.BundleDigest[:63], st.BundleDigest + "0", "sha256:" + st.BundleDigest, st.BundleDigest + "\n"} {
		for _, args := range [][]string{{"grant", "--all"}, {"grant", "--digest", "1"}, {"grant", "--digest", st.Declarations[0].Digest}, {}} {
			code, out, errs := e.cli(append(args, "--bundle-digest", bad)...)
			cmd := strings.TrimSpace("hookside hooks trust " + strings.Join(args[:min(len(args), 1)], ""))
			if code != exitUsage || out != "" || !strings.HasPrefix(errs, cmd+": --bundle-digest "+strconv.Quote(bad)+": ") || !strings.Contains(errs, bundleDigestForms) {
				t.Errorf("%v --bundle-digest %q: exit %d, stdout %q, stderr %q; want exit 2 naming the value and the accepted form", args, bad, code, out, errs)
			}
			if _, err := os.Stat(trustFile); !os.IsNotExist(err) {
				t.Fatalf("%v --bundle-digest %q wrote the trust file (%v)", args, bad, err)
			}
		}
	}
	// --json: the same message as the error object.
	code, out, _ := e.cli("grant", "--all", "--bundle-digest", "nothex", "--json")
	var obj struct {
		Error struct{ Message string } `json:"error"`
	}
	if code != exitUsage || json.Unmarshal([]byte(out), &obj) != nil || !strings.HasPrefix(obj.Error.Message, `--bundle-digest "nothex": malformed bundle digest`) {
		t.Errorf("grant --json --bundle-digest nothex: exit %d %s", code, out)
	}
	// Well-formed but not the workspace's now: exit 1, as before.
	stale := strings.Repeat("0", 64)
	if code, _, errs := e.cli("grant", "--all", "--bundle-digest", stale); code != exitError || !strings.Contains(errs, "is not the workspace's bundle digest now") {
		t.Errorf("grant --all --bundle-digest <64 zeros>: exit %d %s; want 1, not the bundle digest now", code, errs)
	}
	if code, out, errs := e.cli("grant", "--all", "--bundle-digest", strings.ToUpper(st.BundleDigest)); code != 0 || strings.TrimSpace(out) != "trusted "+st.Declarations[0].Digest {
		t.Errorf("grant --all --bundle-digest <upper case>: exit %d %s%s", code, out, errs)
	}
}
