package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/hookside/hookside/truststore"
	"github.com/hookside/hookside/truststore/pin"
)

// printGrantChanges prints what changed since the grant of a stale
// declaration (DeclarationStatus.Changes): the declaration fields old → new
// and the pinned files that changed, each value escaped as the rest of the
// display (dispText), so a workspace file cannot rewrite what is shown.
// Nothing is printed when c is nil.
func printGrantChanges(w io.Writer, c *truststore.GrantChanges) {
	if c == nil {
		return
	}
	fmt.Fprintf(w, "     changed since the grant of %s (digest %s):\n", c.GrantedAt.Local().Format("2006-01-02 15:04"), shortHash(c.GrantedDigest))
	for _, f := range c.Declaration {
		fmt.Fprintf(w, "       %s: %s → %s\n", f.Field, dispText(jsonText(f.Old)), dispText(jsonText(f.New)))
	}
	for _, s := range c.Scripts {
		fmt.Fprintf(w, "       script %s: %s (%s → %s)\n", dispText(s.Path), s.Change, pinText(s.Old), pinText(s.New))
	}
	if c.Note != "" {
		fmt.Fprintf(w, "       (%s)\n", dispText(c.Note))
	}
}

func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

func pinText(p *pin.PinEntry) string {
	switch {
	case p == nil:
		return "not pinned"
	case p.Kind == "absent":
		return "absent"
	case p.Kind == "link":
		return "link to " + dispText(p.Target) + " " + shortHash(p.SHA256)
	}
	return p.Kind + " " + shortHash(p.SHA256)
}

func shortHash(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}
