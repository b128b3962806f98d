package pin

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/hookside/hookside/internal/fsid"
)

// Directory pin bounds: a directory a command line names is pinned by its
// whole tree, up to MaxDirFiles entries and MaxDirBytes of regular-file
// content. A larger tree cannot be pinned: PinScripts fails with
// ErrUnpinnable (the grant is refused, `hooks trust` shows the reason), and a
// pinned tree that grows past the bounds no longer holds (stale_digest).
const (
	MaxDirFiles = 256
	MaxDirBytes = 8 << 20
)

// ErrUnpinnable is wrapped by PinScripts' error for a named directory whose
// tree exceeds MaxDirFiles or MaxDirBytes.
var ErrUnpinnable = errors.New("unpinnable")

// treeSum hashes the tree at rel inside r: the sorted walk of every entry
// below it ("d", "f" with the SHA-256 of the content, "l" with the link
// text and, when it leads to a regular file inside r, that file's hash;
// "o" for anything else), bounded by MaxDirFiles and MaxDirBytes. A
// symlink to a directory inside the tree is recorded by its text and not
// descended.
func treeSum(r *os.Root, rel string, c *HashCache) (string, error) {
	h := sha256.New()
	files, bytes := 0, int64(0)
	err := fs.WalkDir(r.FS(), rel, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		files++
		if files > MaxDirFiles {
			return fmt.Errorf("%s: more than %d entries: %w", rel, MaxDirFiles, ErrUnpinnable)
		}
		name := strings.TrimPrefix(strings.TrimPrefix(p, rel), "/")
		switch t := d.Type(); {
		case d.IsDir():
			fmt.Fprintf(h, "d %q\n", name)
		case t.IsRegular():
			fi, err := d.Info()
			if err != nil {
				return err
			}
			if bytes += fi.Size(); bytes > MaxDirBytes {
				return fmt.Errorf("%s: more than %d bytes: %w", rel, MaxDirBytes, ErrUnpinnable)
			}
			sum, _, err := pinnedHash(r, p, c)
			if err != nil {
				return err
			}
			fmt.Fprintf(h, "f %q %s\n", name, sum)
		case t&fs.ModeSymlink != 0:
			target, err := r.Readlink(filepath.FromSlash(p))
			if err != nil {
				return err
			}
			sum := ""
			if fi, err := r.Stat(filepath.FromSlash(p)); err == nil && fi.Mode().IsRegular() {
				if sum, _, err = pinnedHash(r, p, c); err != nil {
					return err
				}
			}
			fmt.Fprintf(h, "l %q %q %s\n", name, target, sum)
		default:
			fmt.Fprintf(h, "o %q\n", name)
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// dirHolds reports whether the directory pin rel (leading to target when
// it is a link out of the root) still has the tree sum want.
func dirHolds(r *os.Root, workspaceRoot, rel, target, want string, c *HashCache) bool {
	if target != "" {
		t, err := filepath.EvalSymlinks(filepath.Join(workspaceRoot, filepath.FromSlash(rel)))
		if err != nil || t != target {
			return false
		}
		tr, err := os.OpenRoot(t)
		if err != nil {
			return false
		}
		defer tr.Close()
		r, rel = tr, "."
	}
	if fi, err := r.Stat(filepath.FromSlash(rel)); err != nil || !fi.IsDir() {
		return false
	}
	got, err := treeSum(r, rel, c)
	return err == nil && got == want
}

// pinOne pins one path: its content hash (and link target when it leads
// outside the root), AbsentPin, or "" for not pinned (nothing there when
// absentOK is false). dir reports a directory, pinned by treeSum. content
// is a regular file's bytes, cut at maxScanBytes+1 (hashOpen).
func pinOne(r *os.Root, root, rel string, absentOK bool) (sum, target string, dir bool, content []byte, err error) {
	fi, err := r.Stat(filepath.FromSlash(rel))
	switch {
	case err == nil && fi.IsDir():
		sum, err := treeSum(r, rel, nil)
		return sum, "", true, nil, err
	case err == nil && fi.Mode().IsRegular():
		f, err := fsid.OpenInRoot(r, filepath.FromSlash(rel))
		if err != nil {
			return "", "", false, nil, err
		}
		defer f.Close()
		sum, _, content, err := hashOpen(f, nil, true)
		return sum, "", false, content, err
	case err == nil:
		// A FIFO, device or socket: no content to pin, and shown as
		// "absent" it would be granted and then never pass. Cannot be
		// pinned: the declaration cannot be granted while it is there.
		return "", "", false, nil, &fsid.NotRegularError{Path: rel, Mode: fi.Mode()}
	case fsid.IsNotExist(err):
		if absentOK {
			return AbsentPin, "", false, nil, nil
		}
		return "", "", false, nil, nil
	case fsid.IsEscape(err):
		full := filepath.Join(root, filepath.FromSlash(rel))
		if link, text, ok := processRelativeLink(full); ok {
			return "", "", false, nil, &ProcessRelativeError{Path: rel, Link: link, Text: text}
		}
		t, eerr := filepath.EvalSymlinks(full)
		if eerr != nil {
			if fsid.IsNotExist(eerr) {
				if _, lerr := os.Lstat(full); lerr == nil || absentOK {
					return AbsentPin, "", false, nil, nil // a dangling link: nothing until its target appears
				}
				// Not a link at all: a name the root refuses as a path
				// (on Windows "Reminder: run the tests", with a colon)
				// that names nothing.
				return "", "", false, nil, nil
			}
			return "", "", false, nil, eerr
		}
		f, err := fsid.Open(t)
		if err != nil {
			return "", "", false, nil, err
		}
		defer f.Close()
		fi, err := f.Stat()
		if err != nil {
			return "", "", false, nil, err
		}
		if fi.IsDir() {
			tr, err := os.OpenRoot(t)
			if err != nil {
				return "", "", false, nil, err
			}
			defer tr.Close()
			sum, err := treeSum(tr, ".", nil)
			return sum, t, true, nil, err
		}
		if !fi.Mode().IsRegular() {
			return "", "", false, nil, &fsid.NotRegularError{Path: rel + " → " + t, Mode: fi.Mode()}
		}
		sum, _, content, err := hashOpen(f, nil, true)
		return sum, t, false, content, err
	}
	return "", "", false, nil, err
}

// moduleWords returns the paths `python -m mod` may import mod from,
// relative to the directory it runs in: the top package's directory and
// the top module's file (the directory pin covers the submodules).
func moduleWords(mod string) []string {
	top, _, _ := strings.Cut(mod, ".")
	if top == "" || strings.ContainsAny(top, "/\\") {
		return nil
	}
	return []string{top, path.Clean(top + ".py")}
}

// TreePaths returns the absolute paths of everything below the directory
// rel of workspaceRoot (rel itself included), at most MaxDirFiles of them:
// the files a watch must see to notice a change to a directory pin.
func TreePaths(workspaceRoot, rel string) []string {
	base := filepath.Join(workspaceRoot, filepath.FromSlash(rel))
	out := []string{base}
	_ = filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
		if err != nil || len(out) > MaxDirFiles {
			return filepath.SkipAll
		}
		if p != base {
			out = append(out, p)
		}
		return nil
	})
	return out
}
