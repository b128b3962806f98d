package runner

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/hookside/hookside/internal/fsid"
)

// shebangMax is how much of a script's first line is read (bytes): more
// than any kernel honours (Linux 256 since 5.1, macOS 512).
const shebangMax = 512

// parseShebang splits the first line of a file into the interpreter its
// "#!" line names and the rest of the line (the optional argument, spaces
// and tabs around it trimmed). cr reports that the line ended in a
// carriage return before its newline (CRLF line endings), which the
// kernel keeps as part of the interpreter or argument. ok is false when
// head does not start with "#!" or names no interpreter.
func parseShebang(head []byte) (interp, arg string, cr, ok bool) {
	line, found := bytes.CutPrefix(head, []byte("#!"))
	if !found {
		return "", "", false, false
	}
	if i := bytes.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	if n := len(line); n > 0 && line[n-1] == '\r' {
		cr, line = true, line[:n-1]
	}
	line = bytes.Trim(line, " \t")
	i := bytes.IndexAny(line, " \t")
	if i < 0 {
		i = len(line)
	}
	interp, arg = string(line[:i]), string(bytes.Trim(line[i:], " \t"))
	return interp, arg, cr, interp != ""
}

// shebangProblem is why the script exe, which exists, failed to start
// with "no such file or directory": its "#!" line ends in a carriage
// return (CRLF line endings), or names an interpreter that does not exist
// or cannot be run. nil when the file has no such line or none of these
// is the cause. A relative interpreter is resolved against dir, the hook's
// working directory, as the kernel does. Only asked after a failed start
// (no cost on a run).
func shebangProblem(exe, dir string) error {
	interp, _, cr, ok := parseShebang(fileHead(exe))
	if !ok {
		return nil
	}
	if cr {
		return fmt.Errorf("the #! line of %s ends in a carriage return (\\r): the file has Windows (CRLF) line endings, so the system looks for the interpreter %q; convert the file to LF line endings", exe, interp+"\r")
	}
	p := interp
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	fi, err := os.Stat(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("the interpreter %s named by the #! line of %s does not exist", interp, exe)
	case err != nil:
		return fmt.Errorf("the interpreter %s named by the #! line of %s cannot be read: %v", interp, exe, err)
	case fi.IsDir() || fi.Mode()&0o111 == 0:
		return fmt.Errorf("the interpreter %s named by the #! line of %s is not an executable file", interp, exe)
	}
	return nil
}

// fileHead is the first shebangMax bytes of the regular file p; nil when
// p cannot be opened or is not a regular file. It never blocks on a FIFO
// put in the file's place.
func fileHead(p string) []byte {
	f, err := fsid.Open(p)
	if err != nil {
		return nil
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return nil
	}
	head := make([]byte, shebangMax)
	n, _ := io.ReadFull(f, head)
	return head[:n]
}
