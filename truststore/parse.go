package truststore

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/hookside/hookside/internal/jsonexact"
	"github.com/hookside/hookside/internal/jsonpos"
	"github.com/hookside/hookside/internal/jsonscan"
)

// rawSite is a SitePins as the file holds it: its grantedAt is decoded by
// stamp, whose reason names the member and where it is (time.Time's own
// decoding names neither).
type rawSite struct {
	SitePins
	GrantedAt json.RawMessage `json:"grantedAt"`
}

// parse checks the file's shape strictly enough that a truncated or foreign
// file never passes, while tolerating unknown fields (a later writer of the
// same version may add some), but not a member whose name differs from
// one of the file's only in case.
//
// A leading UTF-8 byte order mark (Windows Notepad saves one) is skipped,
// as for configuration files (runner/config) and every JSON input of the
// CLI; positions do not count it, and the file is written back without
// it. A byte that is not UTF-8 makes the file corrupt (RFC 8259 §8.1):
// hookside never writes one, and read as U+FFFD it would make a record
// differ from what the file shows, and the next write would replace it.
func parse(data []byte) ([]Record, error) {
	body, base := jsonpos.SkipBOM(data)
	if len(bytes.TrimSpace(body)) == 0 {
		return nil, &corruptError{"empty file"}
	}
	if why, bad := notUTF8(body, base); bad {
		return nil, &corruptError{why}
	}
	// One decoding pass; pointers tell "absent or null" from zero values.
	var raw struct {
		Version *int `json:"version"`
		Records *[]*struct {
			WorkspaceID *string           `json:"workspaceId"`
			Digest      *string           `json:"digest"`
			GrantedAt   json.RawMessage   `json:"grantedAt"`
			Snapshot    *Snapshot         `json:"snapshot"`
			ScriptPins  map[string]string `json:"scriptPins"`
			ScriptLinks map[string]string `json:"scriptLinks"`
			ScriptGlobs map[string]string `json:"scriptGlobs"`
			ScriptDirs  []string          `json:"scriptDirs"`
			Site        *SiteKey          `json:"site"`
			OtherSites  []rawSite         `json:"otherSites"`
		} `json:"records"`
	}
	if err := jsonexact.Unmarshal(body, &raw); err != nil {
		return nil, &corruptError{jsonWhy(body, err)}
	}
	// Member names are exact (docs/protocol.md §1). A member named like
	// one of the file's own but in another case ("Records") is no later
	// writer's addition: it is a file that hookside before exact names
	// (which matched them ignoring case) and hookside now would read
	// differently, so it is not read at all.
	// A member named twice is read as its last value here and as its
	// first by other parsers: not a file hookside wrote.
	if name, off, dup := jsonscan.DuplicateAt(body); dup {
		return nil, &corruptError{fmt.Sprintf("wrong shape: member %q appears twice in one object (%s; each member name may appear once)", name, lineCol(body, off))}
	}
	if v := jsonexact.Variants(body, &raw, 1); len(v) > 0 {
		return nil, &corruptError{fmt.Sprintf("wrong shape: member %q differs from %q only in case (member names are exact)", v[0].Path, v[0].Field)}
	}
	if raw.Version == nil || raw.Records == nil {
		return nil, &corruptError{`wrong shape: missing "version" or "records"`}
	}
	if *raw.Version != fileVersion {
		return nil, &corruptError{fmt.Sprintf("unsupported version %d, want %d", *raw.Version, fileVersion)}
	}
	recs := make([]Record, 0, len(*raw.Records))
	for i, r := range *raw.Records {
		at := fmt.Sprintf("records[%d]", i)
		if r == nil || r.WorkspaceID == nil || *r.WorkspaceID == "" || r.Digest == nil || !validDigest(*r.Digest) ||
			r.GrantedAt == nil || string(r.GrantedAt) == "null" || r.Snapshot == nil {
			return nil, &corruptError{fmt.Sprintf("wrong shape: %s%s: missing or invalid workspaceId, digest, grantedAt or snapshot", at, atPath(body, at))}
		}
		granted, err := stamp(body, at+".grantedAt", r.GrantedAt)
		if err != nil {
			return nil, err
		}
		var others []SitePins
		if r.OtherSites != nil {
			others = make([]SitePins, len(r.OtherSites))
		}
		for j, o := range r.OtherSites {
			// null or absent: the zero time, which validSites reports missing.
			if o.SitePins.GrantedAt, err = stamp(body, fmt.Sprintf("%s.otherSites[%d].grantedAt", at, j), o.GrantedAt); err != nil {
				return nil, err
			}
			others[j] = o.SitePins
		}
		rec := Record{WorkspaceID: *r.WorkspaceID, Digest: *r.Digest, GrantedAt: granted,
			Snapshot: *r.Snapshot, ScriptPins: r.ScriptPins, ScriptLinks: r.ScriptLinks, ScriptGlobs: r.ScriptGlobs, ScriptDirs: r.ScriptDirs,
			Site: r.Site, OtherSites: others}
		if err := validSites(&rec); err != nil {
			return nil, &corruptError{fmt.Sprintf("wrong shape: %s%s: %v", at, atPath(body, at), err)}
		}
		recs = append(recs, rec)
	}
	return recs, nil
}

// stampExample is the form a grant time takes, as the reasons show it.
const stampExample = "an RFC 3339 time such as 2026-01-02T15:04:05Z"

// stamp decodes raw, the value of the grant time at path in data, as
// time.Time does (an RFC 3339 string; absent or null is the zero time).
// Its error is a *corruptError naming path, its line and column, what it
// is and what is expected ("wrong shape: records[0].otherSites[1].grantedAt
// (line 9, column 24) is \"2026-13-01T00:00:00Z\" (month out of range), not
// an RFC 3339 time such as 2026-01-02T15:04:05Z"), never time.Parse's text
// with its layout.
func stamp(data []byte, path string, raw json.RawMessage) (time.Time, error) {
	var t time.Time
	if len(raw) == 0 {
		return t, nil
	}
	err := t.UnmarshalJSON(raw)
	if err == nil {
		return t, nil
	}
	// RFC 3339 §5.6 lets "T" and "Z" be written in lower case; time.Time
	// takes only the upper-case letters.
	if up := bytes.ToUpper(raw); !bytes.Equal(up, raw) && t.UnmarshalJSON(up) == nil {
		return t, nil
	}
	what := jsonpos.ValueKindName(raw)
	if what == "a string" {
		what = clip(string(raw), 64)
		var pe *time.ParseError
		if errors.As(err, &pe) && pe.Message != "" {
			what += " (" + strings.TrimPrefix(pe.Message, ": ") + ")"
		}
	} else {
		what = "a JSON " + strings.TrimPrefix(strings.TrimPrefix(what, "an "), "a ")
	}
	return time.Time{}, &corruptError{fmt.Sprintf("wrong shape: %s%s is %s, not %s", path, atPath(data, path), what, stampExample)}
}

// clip is s cut to at most n bytes at a character boundary, "…" marking
// the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// notUTF8 is why body, the trust file after a byte order mark of base
// bytes, is not UTF-8 (RFC 8259 §8.1), at its first bad byte: "not valid
// UTF-8 at line L, column C: byte 0xe9 at offset N (…)", the offset
// counting bytes of the file from 0, the mark included. bad is false when
// body is UTF-8, and when it only ends inside a character: a file cut
// short, which the JSON check words as such.
func notUTF8(body []byte, base int) (why string, bad bool) {
	off, bad := jsonpos.InvalidUTF8(body)
	if !bad || !utf8.FullRune(body[off:]) {
		return "", false
	}
	return fmt.Sprintf("not valid UTF-8 at %s: byte 0x%02x at offset %d (JSON text must be UTF-8, RFC 8259 §8.1: saved as Latin-1?)",
		lineCol(body, off), body[off], base+off), true
}

// validSites checks every pin set of rec (its own and OtherSites) and
// normalises the sites: a key given twice keeps its first set (the
// record's own, then the newest), and at most MaxSites are kept, newest
// first. A record written before sites were recorded (no site, no
// otherSites) is its own one site, key not recorded: read as it was.
func validSites(rec *Record) error {
	if err := rec.Pins().Validate(); err != nil {
		return err
	}
	if len(rec.OtherSites) == 0 {
		return nil
	}
	for j := range rec.OtherSites {
		o := &rec.OtherSites[j]
		if o.GrantedAt.IsZero() {
			return fmt.Errorf("otherSites[%d]: missing grantedAt", j)
		}
		if err := o.Pins().Validate(); err != nil {
			return fmt.Errorf("otherSites[%d]: %v", j, err)
		}
	}
	sites := rec.Sites()
	others := make([]SitePins, 0, len(sites)-1)
	for _, s := range sites[1:] {
		if s.Site.id() != sites[0].Site.id() && !slices.ContainsFunc(others, func(k SitePins) bool { return k.Site.id() == s.Site.id() }) {
			others = append(others, s)
		}
	}
	others = boundSites(others)
	if len(others) > MaxSites-1 {
		others = others[:MaxSites-1]
	}
	rec.setSites(append(sites[:1], others...))
	return nil
}
