package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// editOnRead is a terminal answer that edits a file first: the script
// changes while the review waits for the answer.
type editOnRead struct {
	t      *testing.T
	path   string
	answer *strings.Reader
	done   bool
}

func (r *editOnRead) Read(p []byte) (int, error) {
	if !r.done {
		r.done = true
		if err := os.WriteFile(r.path, []byte("touch /tmp/not-what-you-reviewed\n"), 0o644); err != nil {
			r.t.Fatal(err)
		}
	}
	return r.answer.Read(p)
}

// scriptTrustEnv is newTrustEnv whose Stop declaration runs hooks/g.sh.
func scriptTrustEnv(t *testing.T) (trustEnv, string) {
	e := newTrustEnv(t)
	g := filepath.Join(e.ws, "hooks", "g.sh")
	writeFiles(t, map[string]string{
		filepath.Join(e.ws, "zcode.json"): `{"hooks":{"events":{"Stop":[{"hooks":[{"type":"command","command":"sh hooks/g.sh"}]}]}}}`,
		g:                                 "exit 0\n",
	})
	return e, g
}

// TestReviewRefusesAScriptChangedWhileShown: a script edited between the
// terminal review's list and the answer is not granted (nothing is, exit
// 1, script_changed_since_review named), as review/submit refuses it.
func TestReviewRefusesAScriptChangedWhileShown(t *testing.T) {
	e, g := scriptTrustEnv(t)
	oldTTY, oldIn := stdinIsTTY, stdinReader
	defer func() { stdinIsTTY, stdinReader = oldTTY, oldIn }()
	stdinIsTTY = func() bool { return true }
	stdinReader = &editOnRead{t: t, path: g, answer: strings.NewReader("1\n")}
	code, out, errs := e.cli("review")
	if code != exitError || strings.Contains(out, "trusted ") || !strings.Contains(errs, "nothing granted") || !strings.Contains(errs, "script_changed_since_review") {
		t.Fatalf("review with the script edited before the answer: exit %d\n%s%s", code, out, errs)
	}
	if n := e.status(t).Counts["trusted_persistent"]; n != 0 {
		t.Fatalf("%d trusted after the refused review", n)
	}
}

// TestGrantBundleDigestBindsWhatWasShown: grant --digest D --bundle-digest
// B grants when the workspace is as status showed it, and is refused (exit
// 1) after a script D runs changed, though D itself (the declaration) did
// not; a list number without --bundle-digest is a usage error. Neither
// refusal prints the bundle digest now: pasting it would grant unseen.
func TestGrantBundleDigestBindsWhatWasShown(t *testing.T) {
	e, g := scriptTrustEnv(t)
	st := e.status(t)
	d := st.Declarations[0].Digest
	if code, _, errs := e.cli("grant", "--digest", "1"); code != exitUsage || !strings.Contains(errs, "needs the --bundle-digest B") || strings.Contains(errs, st.BundleDigest) {
		t.Fatalf("grant 1 without --bundle-digest: exit %d %s", code, errs)
	}
	writeFiles(t, map[string]string{g: "touch /tmp/not-what-you-reviewed\n"})
	for _, sel := range []string{"1", d} {
		if code, out, errs := e.cli("grant", "--digest", sel, "--bundle-digest", st.BundleDigest); code != exitError || strings.Contains(out, "trusted") || !strings.Contains(errs, "the workspace changed since it was shown") || strings.Contains(errs, e.status(t).BundleDigest) {
			t.Fatalf("grant --digest %s with a stale bundle digest: exit %d\n%s%s", sel, code, out, errs)
		}
	}
	st2 := e.status(t)
	if st2.Declarations[0].Digest != d || st2.BundleDigest == st.BundleDigest {
		t.Fatalf("the declaration digest should stay %s and the bundle digest change: %+v", d, st2)
	}
	if code, out, errs := e.cli("grant", "--digest", "1", "--bundle-digest", st2.BundleDigest); code != 0 || !strings.Contains(out, "trusted "+d) {
		t.Fatalf("grant with the bundle digest shown now: exit %d\n%s%s", code, out, errs)
	}
}
