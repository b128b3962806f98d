package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestParseDigestArg: a --digest argument is exactly one of a list number
// (decimal, no sign, no leading zero, shorter than a prefix) or 6 to 64
// hex characters (either case); everything else is a *digestSyntaxError
// naming the value quoted, what is wrong and the accepted forms.
func TestParseDigestArg(t *testing.T) {
	full := strings.Repeat("ab", 32)
	for _, tc := range []struct {
		arg string
		n   int
		hex string
		why string // "" = accepted
	}{
		{arg: "1", n: 1},
		{arg: "0", n: 0}, // well-formed; no declaration has it (exit 1)
		{arg: "12345", n: 12345},
		{arg: "123456", hex: "123456"}, // 6 digits: a digest prefix
		{arg: "000001", hex: "000001"},
		{arg: full[:6], hex: full[:6]},
		{arg: full, hex: full},
		{arg: strings.ToUpper(full), hex: full},
		{arg: "", why: "empty"},
		{arg: "1 ", why: "white space"},
		{arg: " 1", why: "white space"},
		{arg: "1\t", why: "white space"},
		{arg: full + "\n", why: "white space"},
		{arg: full[:10] + " " + full[10:], why: "white space"},
		{arg: "01", why: "leading zero"},
		{arg: "00001", why: "leading zero"},
		{arg: "00", why: "leading zero"},
		{arg: "+1", why: "no sign"},
		{arg: "-1", why: "no sign"},
		{arg: "+", why: "'+' (character 1) is not a hex character"},
		{arg: "1x", why: "malformed digest: 'x' (character 2) is not a hex character"},
		{arg: full + "00", why: "malformed digest: 66 hex characters, a digest has 64"},
		{arg: full + "0", why: "malformed digest: 65 hex characters"},
		{arg: full + "zz", why: "malformed digest: 'z' (character 65) is not a hex character"},
		{arg: full[:63] + "g", why: "malformed digest: 'g' (character 64)"},
		{arg: "é" + full[:10], why: "'é' (character 1)"},
		{arg: "sha256:" + full, why: "without the sha256: prefix"},
		{arg: "SHA256:" + full, why: "without the sha256: prefix"},
		{arg: "abc", why: "too short for a digest prefix: 3 hex characters"},
		{arg: full[:5], why: "too short for a digest prefix: 5 hex characters"},
	} {
		n, hex, err := parseDigestArg(tc.arg)
		if tc.why == "" {
			if err != nil || n != tc.n || hex != tc.hex {
				t.Errorf("parseDigestArg(%q) = %d, %q, %v; want %d, %q", tc.arg, n, hex, err, tc.n, tc.hex)
			}
			continue
		}
		checkDigestSyntaxError(t, "--digest", tc.arg, err, tc.why, digestForms)
	}
}

// checkDigestSyntaxError fails t unless err is the usage error of a
// malformed flag value: a *digestSyntaxError (exit 2) whose message is
// `FLAG "ARG": …why…; forms`.
func checkDigestSyntaxError(t *testing.T, flag, arg string, err error, why, forms string) {
	t.Helper()
	msg := ""
	if err != nil {
		msg = err.Error()
	}
	if _, ok := err.(*digestSyntaxError); !ok || digestExit(err) != exitUsage || !strings.HasPrefix(msg, flag+" "+strconv.Quote(arg)+": ") ||
		!strings.Contains(msg, why) || !strings.HasSuffix(msg, "; "+forms) {
		t.Errorf("%s %q: %T %v; want a usage error naming the value, %q and the accepted forms", flag, arg, err, err, why)
	}
}

// TestTrustDigestMalformedIsUsage: grant and revoke refuse a --digest of
// none of the accepted forms with exit 2 and write nothing — a list
// number with white space, a sign or a leading zero, a digest too long,
// with junk or a non-hex character, a short prefix, an empty value (taken
// before as a prefix of every digest: revoke deleted a workspace's only
// record) — where the forms it takes stay accepted.
func TestTrustDigestMalformedIsUsage(t *testing.T) {
	e := newTrustEnv(t)
	st := e.status(t)
	d := st.Declarations[0].Digest
	trustFile := filepath.Join(e.home, "security", "workspace-hook-trust-v1.json")
	for _, bad := range []string{"1 ", " 1", "01", "+1", "-1", "", d + "00", d + "zz", d[:63] + "g", "sha256:" + d, "abc", d[:5], " " + d} {
		for _, action := range []string{"grant", "revoke"} {
			args := []string{action, "--digest", bad}
			if action == "grant" {
				args = append(args, "--bundle-digest", st.BundleDigest)
			}
			code, out, errs := e.cli(args...)
			if code != exitUsage || out != "" || !strings.HasPrefix(errs, "hookside hooks trust "+action+": --digest "+strconv.Quote(bad)+": ") || !strings.Contains(errs, "want a list number") {
				t.Errorf("%s --digest %q: exit %d, stdout %q, stderr %q; want exit 2 naming the value and the accepted forms", action, bad, code, out, errs)
			}
			if _, err := os.Stat(trustFile); !os.IsNotExist(err) {
				t.Fatalf("%s --digest %q wrote the trust file (%v)", action, bad, err)
			}
		}
	}
	// --json: the same message as the error object.
	code, out, _ := e.cli("grant", "--digest", d+"00", "--json")
	var obj struct {
		Error struct{ Message string } `json:"error"`
	}
	if code != exitUsage || json.Unmarshal([]byte(out), &obj) != nil || !strings.Contains(obj.Error.Message, "malformed digest: 66 hex characters, a digest has 64") {
		t.Errorf("grant --json --digest <66 hex>: exit %d %s", code, out)
	}
	for _, good := range []string{"1", d, strings.ToUpper(d), d[:6]} {
		if code, out, errs := e.cli("grant", "--digest", good, "--bundle-digest", st.BundleDigest); code != 0 || strings.TrimSpace(out) != "trusted "+d {
			t.Errorf("grant --digest %q: exit %d %s%s", good, code, out, errs)
		}
	}
	if code, out, errs := e.cli("revoke", "--digest", d[:6]); code != 0 || !strings.Contains(out, "revoked "+d) {
		t.Errorf("revoke --digest %s: exit %d %s%s", d[:6], code, out, errs)
	}
	// Well-formed, naming nothing: exit 1, as before.
	for _, none := range []string{"0", "2", "ffffff0000", strings.Repeat("f", 64)} {
		if code, _, errs := e.cli("grant", "--digest", none, "--bundle-digest", st.BundleDigest); code != exitError || strings.Contains(errs, "want a list number") {
			t.Errorf("grant --digest %s: exit %d %s; want 1", none, code, errs)
		}
	}
}
