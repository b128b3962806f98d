//go:build unix

package runner

import (
	"os"

	"golang.org/x/sys/unix"
)

// openIntact opens the empty transcript file at path for emptyIntact; nil
// when it cannot (emptyIntact then looks at the path).
func openIntact(path string) *os.File {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	return f
}

// emptyIntact reports whether the empty transcript file is still an empty
// regular file at its path: with f, one fstat(2) — written into (size),
// removed or replaced (no link left: a rename over it or an unlink frees
// the name of this file) — else an lstat(2) of path.
func emptyIntact(path string, f *os.File) bool {
	if f == nil {
		return lstatEmpty(path)
	}
	var st unix.Stat_t
	if unix.Fstat(int(f.Fd()), &st) != nil {
		return false
	}
	return st.Mode&unix.S_IFMT == unix.S_IFREG && st.Size == 0 && st.Nlink > 0
}
