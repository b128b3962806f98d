package truststore

import (
	"slices"
	"strings"
	"time"

	"github.com/hookside/hookside/internal/hook"
	"github.com/hookside/hookside/truststore/pin"
)

// GrantChanges is what changed since the grant a declaration was trusted by,
// for a declaration whose grant went stale (stale_digest, or blocked_policy
// because a pinned script changed): the declaration's fields, old vs new
// (empty when only scripts changed), and the pinned files whose content,
// existence or link target changed. Old values come from the grant's record
// (its snapshot and pins), new ones from the workspace now.
type GrantChanges struct {
	GrantedDigest string    `json:"grantedDigest"`
	GrantedAt     time.Time `json:"grantedAt"`
	// GrantedSite is the site of the grant's pin set compared with: the
	// one granted at this session's site, else the record's newest. Absent
	// when not recorded (a grant written by an older version).
	GrantedSite *SiteKey       `json:"grantedSite,omitempty"`
	Declaration []FieldChange  `json:"declaration"`
	Scripts     []ScriptChange `json:"scripts"`
	// Note says what the record could not tell: "details not recorded"
	// when it lacks what the difference lies in (a grant written by an
	// older version without script pins or the discovery order).
	Note string `json:"note,omitempty"`
}

// FieldChange is one declaration field that differs: Old as granted, New
// as declared now (JSON values: strings, numbers, booleans, arrays).
type FieldChange struct {
	Field string `json:"field"`
	Old   any    `json:"old"`
	New   any    `json:"new"`
}

// ScriptChange is one pin that differs: Change is "changed" (content or
// link target), "added" (pinned now, not at the grant) or "removed"
// (pinned at the grant, not now); Old and New are the pins (nil when
// absent on that side).
type ScriptChange struct {
	Path   string        `json:"path"`
	Change string        `json:"change"`
	Old    *pin.PinEntry `json:"old"`
	New    *pin.PinEntry `json:"new"`
}

// NoteNotRecorded is GrantChanges.Note when the record does not hold what
// changed.
const NoteNotRecorded = "details not recorded: the grant's record does not hold what changed (granted by an older version)"

// grantChanges compares the grant rec with declaration h as it is now,
// pinned as now at the site here (nowErr: why h cannot be pinned now):
// against rec's pin set granted at here, else its newest.
func grantChanges(rec *Record, here *SiteKey, h hook.Hook, now pin.Pins, nowErr error) *GrantChanges {
	sites := rec.Sites()
	site := sites[0]
	for _, s := range sites {
		if s.Site != nil && s.Site.id() == here.id() {
			site = s
			break
		}
	}
	gc := &GrantChanges{GrantedDigest: rec.Digest, GrantedAt: site.GrantedAt, GrantedSite: site.Site,
		Declaration: declarationChanges(rec.Snapshot, snapshotOf(h)), Scripts: []ScriptChange{}}
	oldPins := site.Pins()
	if nowErr == nil {
		gc.Scripts = scriptChanges(oldPins.Entries(), now.Entries())
	}
	switch {
	case nowErr != nil:
		gc.Note = "the scripts cannot be pinned now: " + nowErr.Error()
	case len(gc.Declaration) == 0 && len(gc.Scripts) == 0:
		gc.Note = NoteNotRecorded
	case oldPins.Empty() && !now.Empty() && len(gc.Declaration) == 0:
		// The declaration is as granted yet names scripts now: the grant
		// predates script pins. (When the declaration changed, its new
		// scripts are listed as added and say enough.)
		gc.Note = "the grant recorded no script pins (granted by an older version)"
	}
	return gc
}

// declarationChanges lists the snapshot fields that differ, in display
// order. The slot (event, file, matcher, indices) is the same for a stale
// declaration; it is compared too, for completeness.
func declarationChanges(old, cur Snapshot) []FieldChange {
	out := []FieldChange{}
	add := func(field string, o, n any, same bool) {
		if !same {
			out = append(out, FieldChange{Field: field, Old: o, New: n})
		}
	}
	add("event", old.Event, cur.Event, old.Event == cur.Event)
	add("source", old.SourceRelativePath, cur.SourceRelativePath, old.SourceRelativePath == cur.SourceRelativePath)
	add("matcher", old.Matcher, cur.Matcher, (old.Matcher == nil) == (cur.Matcher == nil) && (old.Matcher == nil || *old.Matcher == *cur.Matcher))
	add("matcherIndex", old.MatcherIndex, cur.MatcherIndex, old.MatcherIndex == cur.MatcherIndex)
	add("hookIndex", old.HookIndex, cur.HookIndex, old.HookIndex == cur.HookIndex)
	add("type", old.Type, cur.Type, old.Type == cur.Type)
	add("command", old.Command, cur.Command, old.Command == cur.Command)
	add("args", nonNil(old.Args), nonNil(cur.Args), slices.Equal(old.Args, cur.Args))
	add("shell", old.Shell, cur.Shell, old.Shell.Kind() == cur.Shell.Kind() && old.Shell.Program() == cur.Shell.Program())
	add("async", old.Async, cur.Async, old.Async == cur.Async)
	add("timeoutMs", old.TimeoutMs, cur.TimeoutMs, old.TimeoutMs == cur.TimeoutMs)
	add("maxOutputBytes", old.MaxOutputBytes, cur.MaxOutputBytes, old.MaxOutputBytes == cur.MaxOutputBytes)
	if old.DiscoveryOrder != nil && cur.DiscoveryOrder != nil {
		add("discoveryOrder", *old.DiscoveryOrder, *cur.DiscoveryOrder, *old.DiscoveryOrder == *cur.DiscoveryOrder)
	}
	return out
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// scriptChanges pairs pins by path (globs by pattern) and lists those that
// differ, sorted by path.
func scriptChanges(old, cur []pin.PinEntry) []ScriptChange {
	key := func(e pin.PinEntry) string {
		if e.Kind == "glob" {
			return "glob\x00" + e.Path
		}
		return "path\x00" + e.Path
	}
	was := make(map[string]pin.PinEntry, len(old))
	for _, e := range old {
		was[key(e)] = e
	}
	out := []ScriptChange{}
	for _, e := range cur {
		k := key(e)
		n := e
		o, ok := was[k]
		delete(was, k) // what stays in was is pinned at the grant only
		switch {
		case !ok:
			out = append(out, ScriptChange{Path: e.Path, Change: "added", New: &n})
		case o != e:
			out = append(out, ScriptChange{Path: e.Path, Change: "changed", Old: &o, New: &n})
		}
	}
	for _, e := range old {
		if _, ok := was[key(e)]; ok {
			o := e
			out = append(out, ScriptChange{Path: e.Path, Change: "removed", Old: &o})
		}
	}
	slices.SortStableFunc(out, func(a, b ScriptChange) int { return strings.Compare(a.Path, b.Path) })
	return out
}
