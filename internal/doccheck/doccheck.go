// Package doccheck finds references in the repository's documentation and
// in the CLI's --help text that a reader of the repository alone cannot
// follow: relative links to files or anchors that do not exist, mentions of
// Markdown files that are not there, absolute paths of one machine,
// citations of material kept outside the repository (design notes, the
// specification files, an issue tracker's text) and web addresses of any
// kind (CheckURLs).
//
// The checks are pure functions over text so they can be tested on
// fixtures; doccheck_test.go applies them to the real files and to the
// --help output of the built binary.
package doccheck

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"unicode"

	"github.com/hookside/hookside/internal/fsid"
)

// Problem is one unresolvable reference: File and Line locate it (Line is
// 1-based), Text is the offending fragment and Reason says what is wrong.
type Problem struct {
	File   string
	Line   int
	Text   string
	Reason string
}

func (p Problem) String() string {
	return fmt.Sprintf("%s:%d: %s: %q", p.File, p.Line, p.Reason, p.Text)
}

// outside lists phrases that cite material outside the repository. Matching
// is case-insensitive.
var outside = []struct {
	phrase, reason string
	caseSensitive  bool
}{
	{"../shared", "cites the project's shared folder, which is not in the repository", false},
	{"shared/spec", "cites the project's shared folder, which is not in the repository", false},
	{"shared/design", "cites the project's shared folder, which is not in the repository", false},
	{"PROTOCOL.md", "cites the design contract, which is not in the repository", true},
	{"PROTOCOL §", "cites the design contract, which is not in the repository", true},
	{"ARCHITECTURE", "cites the design notes, which are not in the repository", true},
	{"LAYOUT.md", "cites the design notes, which are not in the repository", true},
	{"PLATFORMS.md", "cites the design notes, which are not in the repository", true},
	{"STYLE.md", "cites the design notes, which are not in the repository", true},
	{"the design", "cites the design notes, which are not in the repository", false},
	{"the issue", "cites an issue text, which is not in the repository", false},
	{".zh.txt", "cites a specification file, which is not in the repository", false},
	{"spec readme", "cites a specification file, which is not in the repository", false},
	{"lifecycle §", "cites a specification section, which is not in the repository", false},
	{"v2 §", "cites a specification section, which is not in the repository", false},
	{"handbook §", "cites a specification section, which is not in the repository", false},
}

// machinePath matches absolute paths that only exist on one machine. The
// user names in examplePathUsers are accepted as illustrations.
var machinePath = regexp.MustCompile(`(?:^|[\s"'(\x60=:])((?:/work|/root|/home|/Users|/mnt|/tmp/iss)/[A-Za-z0-9_.+-]*)|[A-Za-z]:\\Users\\[A-Za-z0-9_.-]+`)

var examplePathUsers = map[string]bool{
	"/home/me": true, "/home/user": true, "/home/you": true, "/home/alice": true,
	"/Users/me": true, "/Users/you": true, "/Users/alice": true,
}

// CheckText reports citations of outside material and machine paths in
// text. name labels the problems.
func CheckText(name, text string) []Problem {
	var out []Problem
	for i, line := range strings.Split(text, "\n") {
		low := strings.ToLower(line)
		for _, o := range outside {
			hay := low
			if o.caseSensitive {
				hay = line
			}
			if j := strings.Index(hay, o.phrase); j >= 0 {
				out = append(out, Problem{File: name, Line: i + 1, Text: line[j:min(len(line), j+len(o.phrase))], Reason: o.reason})
			}
		}
		for _, m := range machinePath.FindAllStringSubmatch(line, -1) {
			p := m[1]
			if p == "" {
				p = strings.TrimLeft(m[0], " \t\"'(`=:")
			}
			if examplePathUsers[firstTwo(p)] {
				continue
			}
			out = append(out, Problem{File: name, Line: i + 1, Text: p, Reason: "an absolute path of one machine"})
		}
	}
	return out
}

// webURL matches a web address in any form: a link or autolink with a
// scheme (https://…, <http://…>, ftp://…, a reference definition
// "[x]: https://…"), a www. host, or a bare host with a path
// (code.claude.com/docs/…, github.com/owner/repo/issues/1).
var webURL = regexp.MustCompile(`(?i)\b[a-z][a-z0-9+.-]*://[^\s)>\x60"']*|\bwww\.[a-z0-9-]+(?:\.[a-z0-9-]+)+[^\s)>\x60"']*|\b(?:[a-z0-9-]+\.)+(?:com|org|net|io|dev|app|ai|co|gov|edu)/[^\s)>\x60"']*`)

// hasScheme matches the start of an address with a scheme or www. host.
var hasScheme = regexp.MustCompile(`(?i)^(?:[a-z][a-z0-9+.-]*://|www\.)`)

// exampleHost is a host a URL may name in a document: it points nowhere
// outside the reader's machine (localhost, loopback) or is reserved for
// examples (RFC 2606: example.com, .org, .net), so a sample http hook
// or server address can be written out.
var exampleHost = regexp.MustCompile(`(?i)^(?:[a-z][a-z0-9+.-]*://)?(?:[^/@\s]*@)?(?:localhost|127\.0\.0\.1|\[::1\]|(?:[a-z0-9-]+\.)*example\.(?:com|org|net))(?:[:/?#]|$)`)

// CheckURLs reports every web address in text, Markdown fences and code
// spans included: the documents are read from the repository alone (a
// checkout or a release archive), so a fact may not rest on a page
// elsewhere; name the reference and state what it says instead. Passing
// are exampleHost addresses and, written without a scheme, the Go import
// paths under goModules (module paths such as "golang.org/x/sys", from
// go.mod: a package's name in an import or a profile, not a link). name
// labels the problems.
func CheckURLs(name, text string, goModules ...string) []Problem {
	var out []Problem
	for i, line := range strings.Split(text, "\n") {
		for _, u := range webURL.FindAllString(line, -1) {
			if exampleHost.MatchString(u) || (!hasScheme.MatchString(u) && underModule(u, goModules)) {
				continue
			}
			out = append(out, Problem{File: name, Line: i + 1, Text: u,
				Reason: "a web address: the docs must stand alone (name the reference and say what it says)"})
		}
	}
	return out
}

// underModule reports whether path is one of modules or a package path
// under one ("golang.org/x/sys/unix", "github.com/m/m/rpc.(*Server)").
func underModule(path string, modules []string) bool {
	for _, m := range modules {
		if rest, ok := strings.CutPrefix(path, m); ok && (rest == "" || rest[0] == '/' || rest[0] == '.' || rest[0] == '@') {
			return true
		}
	}
	return false
}

// firstTwo returns the first two path elements of an absolute path
// ("/home/me/x" → "/home/me").
func firstTwo(p string) string {
	parts := strings.SplitN(p, "/", 4)
	if len(parts) < 3 {
		return p
	}
	return "/" + parts[1] + "/" + parts[2]
}

var (
	// mdLink is an inline Markdown link or image: [text](target).
	mdLink = regexp.MustCompile(`\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)
	// wholeLink is a whole inline link, text included.
	wholeLink = regexp.MustCompile(`\[[^\]]*\]\([^)]*\)`)
	// mdMention is a Markdown file name written in prose or code spans.
	mdMention = regexp.MustCompile(`(?:^|[^A-Za-z0-9_./-])((?:[A-Za-z0-9_.-]+/)*[A-Za-z0-9_-]+\.md)\b`)
	// codeSpan is an inline code span.
	codeSpan = regexp.MustCompile("`([^`]+)`")
	// repoPath is a code span that is a relative path (no placeholders).
	repoPath = regexp.MustCompile(`^(?:\./)?[A-Za-z0-9_][A-Za-z0-9_.-]*(?:/[A-Za-z0-9_.-]+)+/?(?:\.\.\.)?$`)
	heading  = regexp.MustCompile(`^(#{1,6})\s+(.*?)\s*#*\s*$`)
	fence    = regexp.MustCompile("^\\s*(```|~~~)")
)

// CheckLinks reports relative links in the Markdown file at path (inside
// root) that lead to a missing file or to a missing heading anchor, and
// mentions of Markdown files that exist neither beside the file nor at the
// repository root. External links (with a scheme) are not followed.
func CheckLinks(root, path, text string) []Problem {
	rel, _ := filepath.Rel(root, path)
	rel = filepath.ToSlash(rel)
	var out []Problem
	inFence := false
	for i, line := range strings.Split(text, "\n") {
		if fence.MatchString(line) {
			inFence = !inFence
			continue
		}
		for _, m := range mdLink.FindAllStringSubmatch(line, -1) {
			if p := checkLink(root, path, m[1]); p != "" {
				out = append(out, Problem{File: rel, Line: i + 1, Text: m[1], Reason: p})
			}
		}
		if inFence {
			continue
		}
		// Links were checked above; the rest of the line is prose.
		for _, m := range mdMention.FindAllStringSubmatch(wholeLink.ReplaceAllString(line, ""), -1) {
			if !MentionResolves(root, filepath.Dir(path), m[1]) {
				out = append(out, Problem{File: rel, Line: i + 1, Text: m[1], Reason: "names a Markdown file that is not in the repository"})
			}
		}
		for _, m := range codeSpan.FindAllStringSubmatch(line, -1) {
			if !RepoPathResolves(root, m[1]) {
				out = append(out, Problem{File: rel, Line: i + 1, Text: m[1], Reason: "names a repository path that does not exist"})
			}
		}
	}
	return out
}

// MentionResolves reports whether the Markdown file name resolves beside
// dir, at the repository root or under docs/.
func MentionResolves(root, dir, name string) bool {
	for _, base := range []string{dir, root, filepath.Join(root, "docs")} {
		if _, err := os.Stat(filepath.Join(base, filepath.FromSlash(name))); err == nil {
			return true
		}
	}
	return false
}

// RepoPathResolves reports whether a code span such as `runner/config` or
// `./cmd/hookside/...` that starts with a top-level directory of the
// repository names something that exists. Other spans (file names a user
// creates, paths under the home, JSON keys) are not repository paths and
// always resolve.
func RepoPathResolves(root, span string) bool {
	if !repoPath.MatchString(span) {
		return true
	}
	p := strings.TrimSuffix(strings.TrimPrefix(span, "./"), "...")
	first, _, _ := strings.Cut(p, "/")
	if fi, err := os.Stat(filepath.Join(root, first)); err != nil || !fi.IsDir() || strings.HasPrefix(first, ".") {
		return true
	}
	_, err := os.Stat(filepath.Join(root, filepath.FromSlash(p)))
	return err == nil
}

// checkLink returns why target (a link in the file at path) does not
// resolve, or "".
func checkLink(root, path, target string) string {
	if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
		return ""
	}
	file, anchor, _ := strings.Cut(target, "#")
	dest := path
	if file != "" {
		if strings.HasPrefix(file, "/") {
			return "an absolute link: use a path relative to this file"
		}
		dest = filepath.Join(filepath.Dir(path), filepath.FromSlash(file))
		if _, in := fsid.Within(root, dest); !in {
			return "leads outside the repository"
		}
		if _, err := os.Stat(dest); err != nil {
			return "the linked file does not exist"
		}
	}
	if anchor == "" || !strings.HasSuffix(dest, ".md") {
		return ""
	}
	b, err := os.ReadFile(dest)
	if err != nil {
		return "the linked file cannot be read"
	}
	if !Anchors(string(b))[anchor] {
		return "no heading has this anchor"
	}
	return ""
}

// Anchors returns the heading anchors of a Markdown text as GitHub makes
// them: lower case, punctuation other than '-' and '_' dropped, spaces
// turned into '-', and "-1", "-2" … appended to repeated ones.
func Anchors(text string) map[string]bool {
	seen := map[string]int{}
	out := map[string]bool{}
	inFence := false
	for _, line := range strings.Split(text, "\n") {
		if fence.MatchString(line) {
			inFence = !inFence
			continue
		}
		m := heading.FindStringSubmatch(line)
		if inFence || m == nil {
			continue
		}
		slug := Slug(m[2])
		if n := seen[slug]; n > 0 {
			out[fmt.Sprintf("%s-%d", slug, n)] = true
		} else {
			out[slug] = true
		}
		seen[slug]++
	}
	return out
}

// Slug is the GitHub anchor of one heading's text.
func Slug(h string) string {
	h = strings.NewReplacer("`", "", "*", "", "[", "", "]", "").Replace(h)
	var b strings.Builder
	for _, r := range strings.ToLower(h) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r):
			b.WriteRune(r)
		}
	}
	return b.String()
}
