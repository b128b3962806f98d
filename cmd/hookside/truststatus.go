package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/truststore"
)

// trustDiagnostics are the diagnostics of diags whose file is under the
// workspace directory dir (the files `hooks trust` reviews), and the
// errors of the user config userCfg: its defaults (timeoutMs, the root
// switch) enter what each declaration is shown and granted with, so a user
// config that cannot be read changes both.
func trustDiagnostics(diags []hook.Diagnostic, dir, userCfg string) []hook.Diagnostic {
	out := []hook.Diagnostic{}
	prefix := filepath.Clean(dir) + string(filepath.Separator)
	for _, d := range diags {
		if strings.HasPrefix(d.Source, prefix) || d.Severity == hook.SeverityError && d.InFile(userCfg) {
			out = append(out, d)
		}
	}
	return out
}

// printTrustStatus prints st: as JSON, or for a human (the workspace, its
// policy, store and bundle digest, then each declaration, or why there is
// none: nothing declared, or files that could not be read).
func printTrustStatus(w io.Writer, st trustStatus, asJSON bool) int {
	if asJSON {
		if st.Declarations == nil {
			st.Declarations = []truststore.DeclarationStatus{}
		}
		writeJSON(w, st)
		return exitOK
	}
	fmt.Fprintf(w, "workspace %s\npolicy %s · trust store %s · bundle %s\n", dispText(st.WorkspaceID), st.Policy, st.StoreStatus, st.BundleDigest)
	printStoreError(w, st.StoreError)
	printMovedAside(w, st.trustFile, st.MovedAside)
	if len(st.Declarations) == 0 {
		if n := unreadableFiles(st.Diagnostics); n > 0 {
			// Not "nothing declared": what a broken file declares is unknown.
			fmt.Fprintf(w, "no workspace hook declarations loaded: %d workspace configuration file(s) could not be read (see the errors above); their hooks do not run\n", n)
			return exitOK
		}
		fmt.Fprintln(w, "no workspace hook declarations")
		return exitOK
	}
	for i, d := range st.Declarations {
		describeDecl(w, i+1, d)
	}
	return exitOK
}

// printMovedAside tells a human where the grants of a trust file found
// corrupt went: the newest copy, and how many older ones there are.
func printMovedAside(w io.Writer, trustFile string, m []truststore.MovedAside) {
	if len(m) == 0 {
		return
	}
	older := ""
	if len(m) > 1 {
		older = fmt.Sprintf(" (and %d older)", len(m)-1)
	}
	what := fmt.Sprintf("%d bytes", m[0].Bytes)
	if m[0].Kind != "regular file" {
		what = "a " + m[0].Kind
	}
	fmt.Fprintf(w, "an earlier trust file was found corrupt and moved aside on %s: %s (%s)%s; its grants are not used: to keep them, repair it and move it over %s\n",
		m[0].MovedAt.Format("2006-01-02 15:04:05 UTC"), dispText(m[0].Path), what, older, dispText(trustFile))
}
