package pin

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// ProcessRelativeError is a script named through a symlink that leads into
// /proc or /dev (/proc/self/cwd/x.sh, /dev/stdin, /dev/fd/0): what such a
// link names depends on the process that resolves it (its working
// directory, its stdin), so the file hookside would pin is not the file the
// hook's shell runs. It cannot be pinned, so the declaration cannot be
// granted (SECURITY.md, "The rule").
type ProcessRelativeError struct {
	Path string // the script, relative to the workspace root
	Link string // the symlink whose text leads there
	Text string // that symlink's text
}

func (e *ProcessRelativeError) Error() string {
	return e.Path + " is named through the link " + e.Link + " -> " + e.Text +
		", which leads into /proc or /dev: it names a different file in each process that reads it"
}

// maxLinkHops bounds the links processRelativeLink follows (a loop ends it).
const maxLinkHops = 255

// processRelativeLink follows the symlinks on the way to the absolute path
// full, component by component as the kernel does, and returns the first
// one whose text, or the place it leads, is in /proc or /dev. ok is false
// when none is (or a component is missing: nothing there to pin yet).
func processRelativeLink(full string) (link, text string, ok bool) {
	vol := filepath.VolumeName(full)
	resolved := vol + string(filepath.Separator)
	rest := splitPath(full[len(vol):])
	for hops := 0; len(rest) > 0; {
		next := filepath.Join(resolved, rest[0])
		rest = rest[1:]
		fi, err := os.Lstat(next)
		if err != nil {
			return "", "", false
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			resolved = next
			continue
		}
		if hops++; hops > maxLinkHops {
			return "", "", false
		}
		t, err := os.Readlink(next)
		if err != nil {
			return "", "", false
		}
		target := t
		if !filepath.IsAbs(t) {
			target = filepath.Join(resolved, t)
		}
		if processRelative(target) {
			return next, t, true
		}
		if filepath.IsAbs(t) {
			v := filepath.VolumeName(t)
			resolved, rest = v+string(filepath.Separator), append(splitPath(t[len(v):]), rest...)
		} else {
			rest = append(splitPath(t), rest...)
		}
	}
	return "", "", false
}

// processRelative reports whether the cleaned absolute path p is in /proc
// or /dev.
func processRelative(p string) bool {
	p = filepath.ToSlash(filepath.Clean(p))
	for _, dir := range []string{"/proc", "/dev"} {
		if p == dir || strings.HasPrefix(p, dir+"/") {
			return true
		}
	}
	return false
}

func splitPath(p string) []string {
	var out []string
	for _, c := range strings.Split(filepath.ToSlash(p), "/") {
		if c != "" && c != "." {
			out = append(out, c)
		}
	}
	return out
}
