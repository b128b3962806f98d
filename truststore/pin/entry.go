package pin

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// rootWord is how Pins.Unfollowed lists a word naming the workspace root:
// too big to pin as a tree, so whatever runs from it is pinned only as far
// as entries knows it.
const rootWord = " (the workspace root: not pinned as a tree)"

// maxManifestBytes bounds how much of a package.json is read for its
// "main" file and its scripts.
const maxManifestBytes = 1 << 20

// entries pins the files an interpreter runs from a directory operand
// (`python3 .`, `node tool`), which a tree pin of the directory covers
// only when the directory is not the root:
//
//   - python: DIR/__main__.py and every DIR/__main__.* and
//     DIR/__pycache__/__main__.* (a .pyc or an extension module the import
//     system may load instead), as globs;
//   - node: DIR/package.json, every DIR/index.*, and the "main" file
//     package.json names when it is a literal path (also main.* and
//     main/index.* while main itself names nothing).
func (sc *scanner) entries(w shellWord, bases []string, prog string, depth int) {
	python := strings.HasPrefix(prog, "python")
	if w.dynamic || !python && !strings.HasPrefix(prog, "node") {
		return
	}
	ps, _ := sc.follow(w, bases)
	for _, p := range ps {
		if _, ok := sc.rel(p); !ok && p != sc.root {
			continue
		}
		if fi, err := os.Stat(p); err != nil || !fi.IsDir() {
			continue
		}
		if python {
			sc.entry(filepath.Join(p, "__main__.py"), false, bases, depth)
			sc.entry(filepath.Join(p, "__main__.*"), true, bases, depth)
			sc.entry(filepath.Join(p, "__pycache__", "__main__.*"), true, bases, depth)
			continue
		}
		sc.entry(filepath.Join(p, "package.json"), false, bases, depth)
		sc.entry(filepath.Join(p, "index.*"), true, bases, depth)
		if m := sc.manifest(filepath.Join(p, "package.json")).m.mainEntry(); m != "" {
			main := filepath.Join(p, filepath.FromSlash(m))
			if main == p {
				continue // "main": "." is the directory's index.*, pinned above
			}
			sc.entry(main, false, bases, depth)
			if fi, err := os.Stat(main); err != nil || !fi.Mode().IsRegular() {
				sc.entry(main+".*", true, bases, depth)
				sc.entry(filepath.Join(main, "index.*"), true, bases, depth)
			}
		}
	}
}

// entry adds one entry-file candidate (absolute path or, when glob is
// set, a pattern whose directory part is taken literally).
func (sc *scanner) entry(p string, glob bool, bases []string, depth int) {
	if glob {
		if rel, ok := sc.rel(filepath.Dir(p)); ok && isPattern(rel) {
			return // the directory itself reads as a pattern: its tree pin covers it
		}
	}
	sc.word(shellWord{text: p, glob: glob}, bases, true, false, depth)
}

// manifest is what is read from a package.json.
type manifest struct {
	Name    any            `json:"name"`
	Main    any            `json:"main"`
	Bin     any            `json:"bin"`
	Scripts map[string]any `json:"scripts"`
}

// binEntry returns the file the manifest's "bin" names for the command
// name (a map entry, or the string form for the package's own name,
// scope removed), when it is a literal relative path; else "".
func (m manifest) binEntry(name string) string {
	var s string
	switch b := m.Bin.(type) {
	case map[string]any:
		s, _ = b[name].(string)
	case string:
		if n, _ := m.Name.(string); n == name || strings.HasSuffix(n, "/"+name) {
			s = b
		}
	}
	if s == "" || strings.ContainsAny(s, "$`\x00") || filepath.IsAbs(s) {
		return ""
	}
	return s
}

// readManifest reads the package.json at p (at most maxManifestBytes);
// ok is false when it cannot be read or parsed.
func readManifest(p string) (manifest, bool) {
	var m manifest
	f, err := os.Open(p)
	if err != nil {
		return m, false
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxManifestBytes+1))
	if err != nil || len(b) > maxManifestBytes || json.Unmarshal(b, &m) != nil {
		return manifest{}, false
	}
	return m, true
}

// mainEntry returns the manifest's "main" when it is a literal relative
// path, else "".
func (m manifest) mainEntry() string {
	s, _ := m.Main.(string)
	if s == "" || strings.ContainsAny(s, "$`\x00") || filepath.IsAbs(s) {
		return ""
	}
	return s
}

// manifestRead is one package.json as scanner.manifest found it: file is
// false when the path holds no regular file, ok when it was read and
// parsed (m is then its content, else the zero manifest).
type manifestRead struct {
	m        manifest
	file, ok bool
}

// manifest returns the package.json at p (absolute), read once per scan:
// runScript, localBin and entries may ask for the same one several times
// in a line (`yarn lint` runs a script or a binary of that name). Only a
// regular file is opened (a FIFO would block the read).
func (sc *scanner) manifest(p string) manifestRead {
	if r, ok := sc.manifests[p]; ok {
		return r
	}
	var r manifestRead
	if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
		r.file = true
		r.m, r.ok = readManifest(p)
	}
	if sc.manifests == nil {
		sc.manifests = map[string]manifestRead{}
	}
	sc.manifests[p] = r
	return r
}
