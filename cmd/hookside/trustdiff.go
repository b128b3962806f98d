package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/hookside/hookside/internal/jsonhtml"
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
	at := ""
	if c.GrantedSite != nil {
		at = " at " + dispText(c.GrantedSite.String())
	}
	when := c.GrantedAt.Local().Format("2006-01-02 15:04")
	// Never reviewed here: what differs is this site, not an edit; the
	// note heads the comparison instead of closing it.
	otherSite := strings.HasPrefix(c.Note, truststore.NoteOtherSite)
	if otherSite {
		fmt.Fprintf(w, "     %s; compared with the grant of %s%s (digest %s):\n", dispText(c.Note), when, at, shortHash(c.GrantedDigest))
	} else {
		fmt.Fprintf(w, "     changed since the grant of %s%s (digest %s):\n", when, at, shortHash(c.GrantedDigest))
	}
	for _, f := range c.Declaration {
		fmt.Fprintf(w, "       %s: %s → %s\n", f.Field, dispText(jsonText(f.Old)), dispText(jsonText(f.New)))
	}
	for _, s := range c.Scripts {
		fmt.Fprintf(w, "       script %s: %s\n", dispText(s.Path), scriptChangeText(s))
	}
	if c.Note != "" && !otherSite {
		fmt.Fprintf(w, "       (%s)\n", dispText(c.Note))
	}
}

// scriptChangeText says what one pin difference means for a reviewer;
// the change word (changed, added, removed) starts it as in --json:
// "changed (file a → file b)", "added: resolved now (missing), not in the
// grant", "removed: in the grant (file a), not resolved here".
func scriptChangeText(s truststore.ScriptChange) string {
	switch s.Change {
	case "added":
		return "added: resolved here (" + pinNowText(s.New) + "), not in the grant"
	case "removed":
		return "removed: in the grant (" + pinText(s.Old) + "), not resolved here"
	}
	return s.Change + " (" + pinText(s.Old) + " → " + pinText(s.New) + ")"
}

// pinNowText is pinText for a file as resolved here now: an absent pin is a
// file that does not exist.
func pinNowText(p *pin.PinEntry) string {
	if p != nil && p.Kind == "absent" {
		return "missing"
	}
	return pinText(p)
}

// printGrantedSites prints the pin sets of a record granted at several
// sites (DeclarationStatus.Sites), newest first: each site (the session
// directory relative to the workspace root), its grant time, whether it is
// this session's site and whether it admits this session, and its pins.
// Nothing is printed for none.
func printGrantedSites(w io.Writer, sites []truststore.GrantedSite) {
	if len(sites) == 0 {
		return
	}
	fmt.Fprintf(w, "     granted at %d sites (admitted wherever one of them covers the pins resolved there):\n", len(sites))
	for _, s := range sites {
		var marks []string
		if s.Here {
			marks = append(marks, "this session's site")
		}
		if s.Current {
			marks = append(marks, "admits this session")
		}
		mark := ""
		if len(marks) > 0 {
			mark = " [" + strings.Join(marks, ", ") + "]"
		}
		parts := make([]string, len(s.Pins))
		for i, p := range s.Pins {
			parts[i] = describePin(p)
		}
		pins := strings.Join(parts, ", ")
		if pins == "" {
			pins = "no pins"
		}
		fmt.Fprintf(w, "       %s, %s%s: %s\n", dispText(s.Site.String()), s.GrantedAt.Local().Format("2006-01-02 15:04"), mark, pins)
	}
}

// jsonText is v as compact JSON with <, > and & written as themselves
// (a command "a && b" reads as it was written, not "a \u0026\u0026 b").
func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(jsonhtml.Unescape(b))
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
