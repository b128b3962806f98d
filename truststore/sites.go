package truststore

import (
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/hookside/hookside/internal/fsid"
	"github.com/hookside/hookside/truststore/pin"
)

// MaxSites bounds the pin sets one record holds (one per site a grant was
// made at). A grant at a new site beyond it drops the oldest site's pins
// (by grant time): that site is stale until reviewed again.
const MaxSites = 32

// SiteKey names the site a record's pin set was granted at (beyond the
// spec, hookside's; docs/protocol.md §4 "Pins are resolved per session"),
// in a form that stays the same however the workspace is reached: the
// directories relative to the workspace root ("/" separators, "." for the
// root; a directory outside it absolute). It is a label — which pins a
// new grant at the same site replaces, and what a reviewer is shown —
// never a condition of admission: a declaration is admitted wherever one
// of the record's sets covers the pins resolved there (PinsMatch).
type SiteKey struct {
	// Dir is the session directory (Site.Dir).
	Dir string `json:"dir"`
	// ProjectDir is what ${ZCODE_PROJECT_DIR} / ${CLAUDE_PROJECT_DIR}
	// stood for, when not Dir.
	ProjectDir string `json:"projectDir,omitempty"`
	// Path holds the PATH entries inside the pin root, in order, each
	// once: the only ones that resolve pins (entries elsewhere are not
	// looked into, so they do not tell sites apart).
	Path []string `json:"path,omitempty"`
}

// SitePins is the pin set a grant recorded at one site besides the
// record's own (Record.OtherSites): the same fields as the record's
// ScriptPins, ScriptLinks, ScriptGlobs and ScriptDirs. Site nil: not
// recorded (pins kept from a grant written by an older version).
type SitePins struct {
	Site        *SiteKey          `json:"site,omitempty"`
	GrantedAt   time.Time         `json:"grantedAt"`
	ScriptPins  map[string]string `json:"scriptPins,omitempty"`
	ScriptLinks map[string]string `json:"scriptLinks,omitempty"`
	ScriptGlobs map[string]string `json:"scriptGlobs,omitempty"`
	ScriptDirs  []string          `json:"scriptDirs,omitempty"`
}

// Pins returns the site's pins.
func (sp *SitePins) Pins() pin.Pins {
	return pinsOf(sp.ScriptPins, sp.ScriptLinks, sp.ScriptGlobs, sp.ScriptDirs)
}

func pinsOf(scripts, links, globs map[string]string, dirList []string) pin.Pins {
	var dirs map[string]bool
	for _, d := range dirList {
		if dirs == nil {
			dirs = map[string]bool{}
		}
		dirs[d] = true
	}
	return pin.Pins{Scripts: scripts, Links: links, Globs: globs, Dirs: dirs}
}

// sitePinsOf returns the SitePins recording p at site k.
func sitePinsOf(k *SiteKey, at time.Time, p pin.Pins) SitePins {
	return SitePins{Site: k, GrantedAt: at, ScriptPins: p.Scripts, ScriptLinks: p.Links, ScriptGlobs: p.Globs, ScriptDirs: p.DirList()}
}

// Sites returns every pin set of the record, the record's own first (the
// newest grant: Site, GrantedAt and the Script* fields), then OtherSites
// in their order (newest first as Grant writes them).
func (r *Record) Sites() []SitePins {
	out := make([]SitePins, 0, 1+len(r.OtherSites))
	out = append(out, SitePins{Site: r.Site, GrantedAt: r.GrantedAt,
		ScriptPins: r.ScriptPins, ScriptLinks: r.ScriptLinks, ScriptGlobs: r.ScriptGlobs, ScriptDirs: r.ScriptDirs})
	return append(out, r.OtherSites...)
}

// setSites stores sites (newest first, at least one) into r: the first
// becomes the record's own pins and grant time, the rest OtherSites.
func (r *Record) setSites(sites []SitePins) {
	first := sites[0]
	r.Site, r.GrantedAt = first.Site, first.GrantedAt
	r.ScriptPins, r.ScriptLinks, r.ScriptGlobs, r.ScriptDirs = first.ScriptPins, first.ScriptLinks, first.ScriptGlobs, first.ScriptDirs
	r.OtherSites = nil
	if len(sites) > 1 {
		r.OtherSites = slices.Clone(sites[1:])
	}
}

// id is the key's identity for comparison; "" for nil (not recorded).
func (k *SiteKey) id() string {
	if k == nil {
		return ""
	}
	return k.Dir + "\x00" + k.ProjectDir + "\x00" + strings.Join(k.Path, "\x00")
}

// String renders the key for a reviewer: "sub", ". (project dir: x)",
// "sub (PATH: bin, node_modules/.bin)"; "site not recorded" for nil.
func (k *SiteKey) String() string {
	if k == nil {
		return "site not recorded"
	}
	var extra []string
	if k.ProjectDir != "" {
		extra = append(extra, "project dir "+k.ProjectDir)
	}
	if len(k.Path) > 0 {
		extra = append(extra, "PATH "+strings.Join(k.Path, ":"))
	}
	if len(extra) == 0 {
		return k.Dir
	}
	return k.Dir + " (" + strings.Join(extra, ", ") + ")"
}

// SiteKeyOf returns the key of the Site at for a declaration whose pins
// are relative to pinRoot (PinRoot) in the workspace workspaceRoot: at's
// directories relative to the workspace root (Dir "" is the root,
// ProjectDir "" is Dir) and the PATH entries the pins can depend on (made
// absolute as pin.Site says: relative ones and "" from Dir), those inside
// pinRoot. Nil when workspaceRoot is empty (nothing is pinned).
func SiteKeyOf(workspaceRoot, pinRoot string, at pin.Site) *SiteKey {
	if workspaceRoot == "" {
		return nil
	}
	root := absClean(workspaceRoot)
	dir := root
	if at.Dir != "" {
		dir = absClean(at.Dir)
	}
	k := &SiteKey{Dir: relTo(root, dir)}
	if at.ProjectDir != "" {
		if pd := relTo(root, absClean(at.ProjectDir)); pd != k.Dir {
			k.ProjectDir = pd
		}
	}
	pr := root
	if pinRoot != "" {
		pr = absClean(pinRoot)
	}
	for _, e := range at.Path {
		if e == "" {
			e = "."
		}
		if !filepath.IsAbs(e) {
			e = filepath.Join(dir, e)
		}
		e = filepath.Clean(e)
		if _, in := fsid.Within(pr, e); !in {
			continue
		}
		if r := relTo(root, e); !slices.Contains(k.Path, r) {
			k.Path = append(k.Path, r)
		}
	}
	return k
}

func absClean(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return filepath.Clean(p)
}

// relTo is p relative to root with "/" separators ("." for root), or p
// itself (absolute, "/" separators) when it lies outside root.
func relTo(root, p string) string {
	if r, in := fsid.Within(root, p); in {
		return filepath.ToSlash(r)
	}
	return filepath.ToSlash(p)
}

// mergeSites returns old's sites with each of add's replacing the one with
// the same key (or added), newest first, at most MaxSites (the oldest by
// grant time dropped).
func mergeSites(old, add []SitePins) []SitePins {
	out := slices.Clone(add)
	for _, s := range old {
		if !slices.ContainsFunc(out, func(o SitePins) bool { return o.Site.id() == s.Site.id() }) {
			out = append(out, s)
		}
	}
	return boundSites(out)
}

// boundSites sorts sites newest first (stable: equal times keep their
// order) and keeps at most MaxSites.
func boundSites(sites []SitePins) []SitePins {
	slices.SortStableFunc(sites, func(a, b SitePins) int { return b.GrantedAt.Compare(a.GrantedAt) })
	if len(sites) > MaxSites {
		sites = sites[:MaxSites]
	}
	return sites
}
