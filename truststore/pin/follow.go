package pin

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/hookside/hookside/internal/hook"
)

// follow returns the absolute, lexically cleaned paths word w may name, and
// whether w was followed whole (docs/protocol.md §4 "Script pins"):
//
//   - ${ZCODE_PROJECT_DIR} / ${CLAUDE_PROJECT_DIR} stand for the project
//     directory and the root, ${…PLUGIN_ROOT} for the plugin directory,
//     $PWD / ${PWD}, $(pwd) / `pwd` (also -P, -L) and bash's ~+ for the
//     session directory (the hook's cwd); a default form (${V:-x}, ${V-x}, ${V:=x}, ${V=x}) names what V
//     stands for and also what x names. Such a directory followed by
//     anything but a separator (${PWD}x/k.sh) names a sibling of it, not
//     a path in it: not followed.
//   - Any other expansion (another variable, $(…), `…`, ~, a brace
//     expansion too large to follow) is not followed: whole is false, and
//     the word names the directory before it instead (`./hooks/$N.sh`
//     names hooks, pinned as a tree), plus what a default value names.
//     A word whose unknown part comes first names only its default.
func (sc *scanner) follow(w shellWord, bases []string) ([]string, bool) {
	text := w.text
	if w.opaque {
		text = text[:strings.IndexByte(text, '{')] + "$"
	}
	if w.literal && !w.opaque && text != "" && !strings.ContainsRune(text, 0) { // no expansion: the text is the path
		return sc.resolve(nil, nil, text, text, bases), true
	}
	return sc.followText(text, bases)
}

func (sc *scanner) followText(text string, bases []string) ([]string, bool) {
	if text == "" {
		return nil, true
	}
	heads, rest, known, alt, hasAlt := sc.head(text)
	var out []string
	whole := known
	if hasAlt {
		p, wh := sc.followText(alt+rest, bases)
		out, whole = p, whole && wh
	}
	if !known {
		return out, false
	}
	if i := strings.IndexAny(rest, "$`\x00"); i >= 0 {
		whole = false
		j := strings.LastIndexByte(rest[:i], '/')
		if j < 0 {
			return out, false // no directory of its own is known
		}
		if rest = rest[:j]; rest == "" && heads == nil {
			return out, false // "/$X": anywhere
		}
	}
	return sc.resolve(out, heads, rest, text, bases), whole
}

// resolve adds to out the paths rest names below each of heads (nil: rest
// as written, absolute or against each of bases); text is the word as
// written.
func (sc *scanner) resolve(out, heads []string, rest, text string, bases []string) []string {
	switch {
	case heads != nil:
	case filepath.IsAbs(rest):
		return sc.physical(appendNew(out, filepath.Clean(rest)), "", rest, text)
	default:
		heads = bases
	}
	for _, h := range heads {
		out = sc.physical(appendNew(out, filepath.Join(h, filepath.FromSlash(rest))), h, rest, text)
	}
	return out
}

// physical adds to out the path the kernel reaches for base/rest when a
// ".." in rest follows a component that is a symlink: ".." then leaves the
// link's target, not the link (`hooks/../x.py` with hooks -> sub/deep is
// sub/x.py). A path so reached outside the root is listed in
// Pins.Unfollowed (text as written).
func (sc *scanner) physical(out []string, base, rest, text string) []string {
	if !strings.Contains(rest, "..") {
		return out
	}
	if base == "" { // rest is absolute: start at its volume's root
		vol := filepath.VolumeName(rest)
		base, rest = vol+string(filepath.Separator), rest[len(vol):]
	}
	cur, linked := base, false
	for _, c := range strings.Split(filepath.ToSlash(rest), "/") {
		switch c {
		case "", ".":
		case "..":
			sc.noteLink(cur)
			if fi, err := os.Lstat(cur); err == nil && fi.Mode()&os.ModeSymlink != 0 {
				if t, err := filepath.EvalSymlinks(cur); err == nil {
					cur, linked = sc.underRoot(t), true
				}
			}
			cur = filepath.Dir(cur)
		default:
			cur = filepath.Join(cur, c)
		}
	}
	if !linked {
		return out
	}
	if _, ok := sc.rel(cur); !ok && cur != sc.root {
		sc.unfollow(text + ` ("..": leaves the workspace through a symlink)`)
		return out
	}
	return appendNew(out, cur)
}

// head splits a leading expansion off text: heads are the directories it
// stands for (nil: none, rest is relative or absolute as written), known
// whether it is one follow knows, alt a default value (hasAlt) whose
// paths count too.
func (sc *scanner) head(text string) (heads []string, rest string, known bool, alt string, hasAlt bool) {
	if text[0] == '~' {
		if r, ok := strings.CutPrefix(text, "~+"); ok && (r == "" || r[0] == '/') {
			return []string{sc.cwd}, r, true, "", false
		}
		return nil, text, false, "", false
	}
	if text[0] != '$' && text[0] != '`' {
		return nil, text, true, "", false
	}
	n := skipExpansion(text, 0)
	if isPwdSubst(text[:n]) {
		rest = text[n:]
		if !dirJoin(rest) { // $(pwd)x/g.sh: a sibling of the session directory
			return nil, rest, false, "", false
		}
		return []string{sc.cwd}, rest, true, "", false
	}
	if text[0] == '`' {
		return nil, text, true, "", false
	}
	name, alt, hasAlt := paramDefault(text[:n])
	rest = text[n:]
	if !dirJoin(rest) && (name == "PWD" || contains(hook.ProjectDirVars, name) || contains(hook.PluginRootVars, name)) {
		// ${PWD}x/k.sh names a sibling of the directory, not x/k.sh in it:
		// not followed; a default value still names what it names.
		return nil, rest, false, alt, hasAlt
	}
	switch {
	case contains(hook.ProjectDirVars, name):
		return []string{sc.project, sc.root}, rest, true, alt, hasAlt
	case contains(hook.PluginRootVars, name):
		if sc.plugin == "" {
			return nil, rest, false, alt, hasAlt
		}
		return []string{sc.plugin}, rest, true, alt, hasAlt
	case name == "PWD":
		return []string{sc.cwd}, rest, true, alt, hasAlt
	}
	return nil, rest, false, alt, hasAlt
}

// dirJoin reports whether rest, the text after an expansion that stands
// for a directory, names something in that directory: nothing, or a path
// separator first. Anything else ("x/k.sh" after ${PWD}) continues the
// directory's own last name, a sibling of it. Only '/' separates: in a
// POSIX shell word a backslash quotes the byte after it.
func dirJoin(rest string) bool {
	return rest == "" || rest[0] == '/'
}

// isPwdSubst reports whether exp is a command substitution of pwd alone
// ($(pwd), `pwd`, with -L or -P): the session directory, as $PWD is (-P
// names the same files: the kernel resolves a path physically).
func isPwdSubst(exp string) bool {
	var inner string
	switch {
	case strings.HasPrefix(exp, "$(") && strings.HasSuffix(exp, ")") && !strings.HasPrefix(exp, "$(("):
		inner = exp[2 : len(exp)-1]
	case len(exp) >= 2 && exp[0] == '`' && exp[len(exp)-1] == '`':
		inner = exp[1 : len(exp)-1]
	default:
		return false
	}
	f := strings.Fields(inner)
	return len(f) == 1 && f[0] == "pwd" || len(f) == 2 && f[0] == "pwd" && (f[1] == "-P" || f[1] == "-L")
}

// paramDefault parses $NAME, ${NAME} and the default forms ${NAME:-x},
// ${NAME-x}, ${NAME:=x}, ${NAME=x}; name is "" for any other expansion.
func paramDefault(exp string) (name, alt string, hasAlt bool) {
	if !strings.HasPrefix(exp, "${") {
		if isName(exp[1:]) {
			return exp[1:], "", false
		}
		return "", "", false
	}
	if !strings.HasSuffix(exp, "}") {
		return "", "", false
	}
	body := exp[2 : len(exp)-1]
	i := 0
	for i < len(body) && isNameByte(body[i], i) {
		i++
	}
	name, op := body[:i], body[i:]
	if name == "" {
		return "", "", false
	}
	for _, o := range []string{":-", ":=", "-", "="} {
		if d, ok := strings.CutPrefix(op, o); ok {
			return name, d, true
		}
	}
	if op != "" {
		return "", "", false
	}
	return name, "", false
}

func isName(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isNameByte(s[i], i) {
			return false
		}
	}
	return s != ""
}

func isNameByte(c byte, i int) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9'
}

func appendNew(ss []string, s string) []string {
	if contains(ss, s) {
		return ss
	}
	return append(ss, s)
}

// underRoot maps a resolved path below the root's own resolved path (the
// root reached through a symlink: /var -> /private/var on macOS) back
// below the root as the scanner names it.
func (sc *scanner) underRoot(t string) string {
	real, err := filepath.EvalSymlinks(sc.root)
	if err != nil || real == sc.root {
		return t
	}
	if r, err := filepath.Rel(real, t); err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return filepath.Join(sc.root, r)
	}
	return t
}

// noteLink records what the path before a ".." is now (linkState): a
// remembered resolution is reused only while each is the same (Matches),
// so a directory replaced by a symlink later is seen.
func (sc *scanner) noteLink(p string) {
	if sc.links == nil {
		sc.links = map[string]string{}
	}
	if _, ok := sc.links[p]; !ok && len(sc.links) < maxLinkNotes {
		sc.links[p] = linkState(p)
	}
}

// maxLinkNotes bounds the paths noteLink records for one resolution.
const maxLinkNotes = 256

// linkState is "l:TARGET" for a symlink, "d" for anything else there, ""
// for nothing.
func linkState(p string) string {
	fi, err := os.Lstat(p)
	switch {
	case err != nil:
		return ""
	case fi.Mode()&os.ModeSymlink != 0:
		t, _ := os.Readlink(p)
		return "l:" + t
	}
	return "d"
}

// linksSame reports whether every path of links is still as recorded.
func linksSame(links map[string]string) bool {
	for p, st := range links {
		if linkState(p) != st {
			return false
		}
	}
	return true
}
