package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/hookside/hookside/truststore"
)

// warnUnpinned prints on stderr one line per digest of granted whose
// declaration in shown has unpinned words (DeclarationStatus.Unpinned):
// the grant does not cover what they run, so the reviewer is told again
// which words those are, as `hooks trust status` lists them.
func warnUnpinned(p string, granted []string, shown []truststore.DeclarationStatus, stderr io.Writer) {
	by := make(map[string]truststore.DeclarationStatus, len(shown))
	for _, d := range shown {
		by[d.Digest] = d
	}
	for _, dg := range granted {
		d, ok := by[dg]
		if !ok || len(d.Unpinned) == 0 {
			continue
		}
		words := make([]string, len(d.Unpinned))
		for i, u := range d.Unpinned {
			words[i] = dispWord(u)
		}
		fmt.Fprintf(stderr, "%s: warning: %s (%s %s[%d][%d]) is trusted with unpinned words: %s (pinning could not follow them, so what they run can change without the trust going stale)\n",
			p, dg, dispText(d.Source.RelativePath), dispText(d.Event), d.MatcherIndex, d.HookIndex, strings.Join(words, ", "))
	}
}
