package pin

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// maxGlobEntries bounds the directory entries one `**` pattern's walk
// reads (globMatches); a larger walk is ErrUnpinnable.
const maxGlobEntries = 4096

// isPattern reports whether a root-relative word has glob syntax: *, ?,
// [, or an extglob group (@(…), !(…), +(…)).
func isPattern(rel string) bool {
	return strings.ContainsAny(rel, "*?[") || strings.Contains(rel, "@(") || strings.Contains(rel, "!(") ||
		strings.Contains(rel, "+(")
}

// globPattern turns a glob as the shell reads it into a filepath.Match
// pattern that matches at least what the shell's may reach under any
// option: an extglob group (?(…), *(…), +(…), @(…), !(…)) becomes *; a
// bracket expression's `[!` becomes `[^`, and one holding a POSIX class
// ([[:alpha:]], [=a=], [.a.]), or any under nocase, becomes ?; under
// nocase (nocaseglob) each letter matches either case. A `**` component
// stays: globMatches follows it recursively (bash's globstar, zsh).
func globPattern(pat string, nocase bool) string {
	var b strings.Builder
	for i := 0; i < len(pat); i++ {
		c := pat[i]
		switch {
		case strings.IndexByte("?*+@!", c) >= 0 && i+1 < len(pat) && pat[i+1] == '(':
			if j := closeParen(pat, i+1); j > 0 {
				b.WriteByte('*')
				i = j
				continue
			}
			b.WriteByte(c)
		case c == '[':
			j, class := closeBracket(pat, i)
			switch {
			case j < 0 || class || nocase: // unclosed (the shell reads it literally), a class, any case
				b.WriteByte('?')
				if j > 0 {
					i = j
				}
			default:
				body := pat[i+1 : j]
				if body != "" && body[0] == '!' {
					body = "^" + body[1:]
				}
				b.WriteString("[" + body + "]")
				i = j
			}
		case c == '\\' && i+1 < len(pat):
			b.WriteString(pat[i : i+2])
			i++
		case nocase && (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'):
			lo, up := c|0x20, c&^0x20
			b.WriteString("[" + string(lo) + string(up) + "]")
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// closeParen returns the index of the ")" closing the "(" at s[i], or -1.
func closeParen(s string, i int) int {
	depth := 0
	for j := i; j < len(s); j++ {
		switch s[j] {
		case '(':
			depth++
		case ')':
			if depth--; depth == 0 {
				return j
			}
		case '/':
			return -1
		}
	}
	return -1
}

// closeBracket returns the index of the "]" closing the bracket expression
// at s[i] (-1 when unclosed) and whether it holds a POSIX class, an
// equivalence class or a collating symbol.
func closeBracket(s string, i int) (int, bool) {
	j := i + 1
	if j < len(s) && (s[j] == '!' || s[j] == '^') {
		j++
	}
	if j < len(s) && s[j] == ']' {
		j++
	}
	class := false
	for ; j < len(s); j++ {
		switch s[j] {
		case ']':
			return j, class
		case '/':
			return -1, false
		case '[':
			if j+1 < len(s) && strings.IndexByte(":=.", s[j+1]) >= 0 {
				if k := strings.Index(s[j+2:], string(s[j+1])+"]"); k >= 0 {
					class = true
					j += k + 3
				}
			}
		}
	}
	return -1, false
}

// globMatches returns the root-relative matches of a root-relative
// filepath.Match pattern (globPattern), sorted; a malformed pattern
// yields one entry naming the error. A `**` component matches zero or
// more directories (not through symlinks) and, last, every entry below;
// that walk reads at most maxGlobEntries entries, or fails with
// ErrUnpinnable.
func globMatches(root, pattern string) ([]string, error) {
	comps := strings.Split(pattern, "/")
	if !contains(comps, "**") {
		ms, err := filepath.Glob(filepath.Join(root, filepath.FromSlash(pattern)))
		if err != nil {
			return []string{"!" + err.Error()}, nil
		}
		out := make([]string, 0, len(ms))
		for _, m := range ms {
			if r, err := filepath.Rel(root, m); err == nil && cleanRel(filepath.ToSlash(r)) {
				out = append(out, filepath.ToSlash(r))
			}
		}
		sort.Strings(out)
		return out, nil
	}
	g := &globWalk{root: root, found: map[string]bool{}}
	if err := g.walk("", comps); err != nil {
		return nil, err
	}
	out := make([]string, 0, len(g.found))
	for m := range g.found {
		if cleanRel(m) {
			out = append(out, m)
		}
	}
	sort.Strings(out)
	return out, nil
}

type globWalk struct {
	root    string
	entries int
	found   map[string]bool
}

func (g *globWalk) readDir(dir string) ([]os.DirEntry, error) {
	es, err := os.ReadDir(filepath.Join(g.root, filepath.FromSlash(dir)))
	if err != nil {
		return nil, nil // not a directory, gone, unreadable: no matches here
	}
	if g.entries += len(es); g.entries > maxGlobEntries {
		return nil, fmt.Errorf("** walk over %d entries: %w", maxGlobEntries, ErrUnpinnable)
	}
	return es, nil
}

// walk matches comps below the root-relative directory dir ("" = root).
func (g *globWalk) walk(dir string, comps []string) error {
	if len(comps) == 0 {
		g.found[dir] = true
		return nil
	}
	c, rest := comps[0], comps[1:]
	if c == "" || c == "." {
		return g.walk(dir, rest)
	}
	if c == "**" {
		if err := g.walk(dir, rest); err != nil { // zero directories
			return err
		}
		es, err := g.readDir(dir)
		if err != nil {
			return err
		}
		for _, e := range es {
			p := path.Join(dir, e.Name())
			if len(rest) == 0 {
				g.found[p] = true
			}
			if e.IsDir() { // not a symlink: bash and zsh do not follow them under **
				if err := g.walk(p, comps); err != nil {
					return err
				}
			}
		}
		return nil
	}
	es, err := g.readDir(dir)
	if err != nil {
		return err
	}
	for _, e := range es {
		if ok, err := filepath.Match(c, e.Name()); err != nil || !ok {
			continue
		}
		p := path.Join(dir, e.Name())
		if len(rest) == 0 {
			g.found[p] = true
		} else if err := g.walk(p, rest); err != nil {
			return err
		}
	}
	return nil
}
