package truststore

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/hookside/hookside/internal/fsid"
	"github.com/hookside/hookside/internal/hook"
)

// Script pinning is hookside's addition beyond the spec. The spec's digest
// covers the declaration only (§"按什么摘要信任"; NOTICE: trust "不等于对……其他
// 项目脚本的统一审核"), so `node ./scripts/guard.mjs` stays trusted when
// guard.mjs is rewritten. A record therefore pins the workspace files the
// declaration names; a changed pin demotes the record (Evaluate, step 6).
//
// What is pinned (a heuristic over the command line, documented in
// docs/protocol.md §4 "Script pins"):
//
//   - Words come from the process hook's command and args (literal), or from
//     the command hook's string and its `shell` string, split like a POSIX
//     shell (quotes, backslashes, comments, operators; splitShell). A shell's
//     `-c` script (`bash -c '…'`) is split again.
//   - ${ZCODE_PROJECT_DIR} / ${CLAUDE_PROJECT_DIR} (braced or not) stand for
//     the session directory (and, when it differs, the workspace root);
//     ${ZCODE_PLUGIN_ROOT} / ${CLAUDE_PLUGIN_ROOT} for the declaring plugin's
//     directory. Words with any other expansion ($VAR, $(…), `…`, ~) are not
//     followed. A relative word is resolved against the session directory,
//     the workspace root, and every directory a preceding `cd DIR` / `pushd
//     DIR` in the same command line names (added, never replacing: a failed
//     or subshell cd cannot hide a file).
//   - Only words lexically inside the workspace root count. Output
//     redirection targets and here-document words are skipped; input
//     redirections (`sh < x.sh`) count. `--opt=PATH` counts for its PATH.
//   - A word naming an existing regular file is pinned by SHA-256. A word
//     whose symlinks lead outside the root is pinned by the content it leads
//     to plus the resolved target (ScriptLinks): an edit or a retarget is a
//     change. A word naming nothing is pinned as absent (AbsentPin) when it
//     could name a file to run later: it contains a "/", is an input
//     redirection, or is the first operand of an interpreter or `.`/`source`
//     (bash x.sh, node app.js, python3 -u tool.py); its appearance is a
//     change. Existing directories are not pinned. Anything else that exists
//     (a FIFO, a device) is pinned as absent, so it never passes.
//   - A word with an unquoted glob (*, ?, [) pins every current match and the
//     sorted list of matches (ScriptGlobs): a new, removed or renamed match is
//     a change.
//   - Shell scripts pinned this way (by `#!…sh` line or .sh/.bash/.zsh/.ksh
//     name, or named by `.`/`source`) are read for `.`/`source` lines; what
//     they source is pinned too (a relative path against the same
//     directories as the command's words; $(dirname "$0"), ${0%/*},
//     BASH_SOURCE forms and variables assigned from them stand for the
//     script's directory), up to 4 levels.
//
// Not followed (documented limits): files a script runs, imports or reads
// other than by `.`/`source`; paths built from other variables or command
// substitutions; PATH lookups of bare command names; a `shell` that is not
// a POSIX shell (its command text is still split as shell words).
// Over-inclusion only makes trust stricter.

// AbsentPin is the pin of a path that named nothing when it was pinned (64
// zeros: no file hashes to it). The pin holds while the path resolves to
// nothing; once anything exists there, the pin is changed.
const AbsentPin = "0000000000000000000000000000000000000000000000000000000000000000"

// Pins are the files a record pins besides its declaration.
type Pins struct {
	// Scripts maps root-relative paths ("/" separators) to the SHA-256 of
	// the content they lead to, or AbsentPin.
	Scripts map[string]string
	// Links maps the paths of Scripts whose symlinks lead outside the root
	// to the resolved absolute target at pin time.
	Links map[string]string
	// Globs maps root-relative glob patterns to the SHA-256 of their sorted,
	// "\n"-joined root-relative matches.
	Globs map[string]string
}

// Empty reports whether p pins nothing.
func (p Pins) Empty() bool { return len(p.Scripts) == 0 && len(p.Globs) == 0 }

// Equal reports whether p and q pin the same things the same way.
func (p Pins) Equal(q Pins) bool {
	return maps.Equal(p.Scripts, q.Scripts) && maps.Equal(p.Links, q.Links) && maps.Equal(p.Globs, q.Globs)
}

// Paths returns the pinned paths (not the glob patterns), sorted.
func (p Pins) Paths() []string {
	out := make([]string, 0, len(p.Scripts))
	for k := range p.Scripts {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// validate checks the shape of pins read from the trust file or granted.
func (p Pins) validate() error {
	for rel, sum := range p.Scripts {
		if !cleanRel(rel) || !validDigest(sum) {
			return fmt.Errorf("bad script pin %q", rel)
		}
	}
	for rel, target := range p.Links {
		if sum, ok := p.Scripts[rel]; !ok || sum == AbsentPin || !filepath.IsAbs(target) || filepath.Clean(target) != target {
			return fmt.Errorf("bad script link %q", rel)
		}
	}
	for pat, sum := range p.Globs {
		if !cleanRel(pat) || !validDigest(sum) {
			return fmt.Errorf("bad script glob %q", pat)
		}
	}
	return nil
}

// PinEntry is one pin in a flat, sortable form (bundle digest, display).
type PinEntry struct {
	Path   string `json:"path"`             // root-relative path or glob pattern
	Kind   string `json:"kind"`             // "file", "absent", "link" or "glob"
	SHA256 string `json:"sha256,omitempty"` // content (file, link) or match list (glob) hash; "" when absent
	Target string `json:"target,omitempty"` // link target; "" otherwise
}

// Entries returns p's pins sorted by path, kind, hash, target.
func (p Pins) Entries() []PinEntry {
	out := make([]PinEntry, 0, len(p.Scripts)+len(p.Globs))
	for rel, sum := range p.Scripts {
		switch {
		case sum == AbsentPin:
			out = append(out, PinEntry{Path: rel, Kind: "absent"})
		case p.Links[rel] != "":
			out = append(out, PinEntry{Path: rel, Kind: "link", SHA256: sum, Target: p.Links[rel]})
		default:
			out = append(out, PinEntry{Path: rel, Kind: "file", SHA256: sum})
		}
	}
	for pat, sum := range p.Globs {
		out = append(out, PinEntry{Path: pat, Kind: "glob", SHA256: sum})
	}
	sortEntries(out)
	return out
}

func sortEntries(es []PinEntry) {
	sort.Slice(es, func(i, j int) bool {
		a, b := es[i], es[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.Kind != b.Kind {
			return a.Kind < b.Kind
		}
		if a.SHA256 != b.SHA256 {
			return a.SHA256 < b.SHA256
		}
		return a.Target < b.Target
	})
}

// ScriptPaths returns the workspace paths PinScripts would pin for h with
// the session directory at the workspace root (see the package comment on
// script pinning), sorted and unique; nil when there is no root or on error.
func ScriptPaths(h hook.Hook, workspaceRoot string) []string {
	p, err := PinScripts(h, workspaceRoot)
	if err != nil || len(p.Scripts) == 0 {
		return nil
	}
	return p.Paths()
}

// PinScripts pins the files h names, with the session directory at the
// workspace root. See PinScriptsIn.
func PinScripts(h hook.Hook, workspaceRoot string) (Pins, error) {
	return PinScriptsIn(h, workspaceRoot, workspaceRoot)
}

// PinScriptsIn hashes what h's command line names inside workspaceRoot, for
// a session whose directory is cwd ("" = the root). It fails only on an I/O
// error other than "does not exist" (e.g. permission denied): a file that
// cannot be read cannot be pinned, so it cannot be trusted.
func PinScriptsIn(h hook.Hook, workspaceRoot, cwd string) (Pins, error) {
	if workspaceRoot == "" {
		return Pins{}, nil
	}
	root, err := filepath.Abs(workspaceRoot)
	if err != nil {
		return Pins{}, err
	}
	if cwd == "" {
		cwd = root
	} else if cwd, err = filepath.Abs(cwd); err != nil {
		return Pins{}, err
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		return Pins{}, err
	}
	defer r.Close()
	sc := &scanner{root: root, cwd: cwd, cands: map[string]*cand{}, globs: map[string]bool{}}
	if pr := h.Source.PluginRoot; pr != "" {
		if sc.plugin, err = filepath.Abs(pr); err != nil {
			sc.plugin = ""
		}
	}
	bases := []string{cwd}
	if root != cwd {
		bases = append(bases, root)
	}
	if h.Type == hook.TypeProcess {
		words := []shellWord{{text: h.Command}}
		for _, a := range h.Args {
			words = append(words, shellWord{text: a})
		}
		sc.scan(words, bases, 0)
	} else {
		sc.scan(splitShell(h.Command), bases, 0)
		if h.Shell.Kind() == hook.ShellString {
			sc.scan(splitShell(h.Shell.Program()), bases, 0)
		}
	}
	return sc.pin(r)
}

// cand is a candidate path.
type cand struct {
	absentOK bool     // may be pinned as absent
	source   bool     // named by `.`/`source`: scan it even without a .sh name
	depth    int      // source nesting
	bases    []string // for what it sources
}

type scanner struct {
	root, cwd, plugin string
	cands             map[string]*cand
	order             []string
	globs             map[string]bool
}

// maxScanDepth bounds `sh -c` re-splitting and `.`/`source` following.
const maxScanDepth = 4

// maxScanBytes bounds how much of a script is read for `.`/`source` lines.
const maxScanBytes = 1 << 20

var (
	shellNames = map[string]bool{"sh": true, "bash": true, "dash": true, "zsh": true, "ksh": true, "mksh": true, "ash": true, "yash": true, "posh": true}
	// interpreters take a script file as first operand.
	interpreters = map[string]bool{".": true, "source": true, "fish": true, "node": true, "nodejs": true, "deno": true,
		"bun": true, "tsx": true, "ts-node": true, "ruby": true, "perl": true, "php": true, "lua": true, "Rscript": true,
		"pwsh": true, "osascript": true, "tclsh": true}
	// inlineOpts make an interpreter's next word code, not a file.
	inlineOpts = map[string]bool{"-e": true, "-c": true, "-p": true, "-m": true, "--eval": true, "--print": true, "-E": true}
	// commandPrefixes keep the next word in command position.
	commandPrefixes = map[string]bool{"exec": true, "env": true, "nohup": true, "time": true, "command": true, "builtin": true,
		"nice": true, "sudo": true, "doas": true, "then": true, "do": true, "else": true, "elif": true, "if": true,
		"while": true, "until": true, "!": true, "{": true, "}": true, "setsid": true, "stdbuf": true, "chrt": true, "ionice": true}
)

func isInterpreter(name string) bool {
	return interpreters[name] || shellNames[name] || strings.HasPrefix(name, "python") || strings.HasPrefix(name, "node")
}

func isAssignment(w string) bool {
	i := strings.IndexByte(w, '=')
	if i <= 0 {
		return false
	}
	for j := 0; j < i; j++ {
		c := w[j]
		if c != '_' && (c < 'a' || c > 'z') && (c < 'A' || c > 'Z') && (j == 0 || c < '0' || c > '9') {
			return false
		}
	}
	return true
}

// scan walks one command line's words.
func (sc *scanner) scan(words []shellWord, bases []string, depth int) {
	cmdPos, name, argN := true, "", 0
	var skip, redirIn, scriptNext, inline, codeNext bool
	for _, w := range words {
		if w.op != "" {
			switch w.op {
			case "<", "<>":
				redirIn = true
			case ">", ">>", ">|", "&>", "&>>", ">&", "<&", "<<", "<<-", "<<<":
				skip = true
			default:
				cmdPos, name, argN, skip, redirIn, scriptNext, inline, codeNext = true, "", 0, false, false, false, false, false
			}
			continue
		}
		switch {
		case skip:
			skip = false
			continue
		case redirIn:
			redirIn = false
			sc.word(w, bases, true, false, depth)
			continue
		case codeNext:
			// Inline code (node -e, python3 -c): pinned only where it
			// happens to name an existing file.
			codeNext = false
			sc.word(w, bases, false, false, depth)
			continue
		case scriptNext:
			scriptNext = false
			argN++
			if depth < maxScanDepth {
				sc.scan(splitShell(w.text), bases, depth+1)
			}
			continue
		}
		if cmdPos {
			if isAssignment(w.text) || commandPrefixes[w.text] || strings.HasPrefix(w.text, "-") {
				continue
			}
			cmdPos, argN, inline = false, 0, false
			name = path.Base(w.text)
			// A bare command name is a PATH lookup: pinned only if such a
			// file happens to exist (over-inclusion).
			sc.word(w, bases, strings.Contains(w.text, "/"), false, depth)
			continue
		}
		if len(w.text) > 1 && w.text[0] == '-' {
			if k := strings.IndexByte(w.text, '='); k > 0 {
				v := w.text[k+1:]
				sc.word(shellWord{text: v, glob: w.glob}, bases, strings.Contains(v, "/"), false, depth)
			}
			switch {
			case shellNames[name]:
				// -c (also clustered: -ec) makes the next word a script;
				// -o/-O take an option name. Other options (-e, -x, -u …)
				// leave the script operand where it is.
				switch {
				case strings.HasPrefix(w.text, "--"):
				case strings.Contains(w.text, "c"):
					scriptNext = true
				case w.text == "-o" || w.text == "-O":
					skip = true
				}
			case isInterpreter(name) && inlineOpts[w.text]:
				inline, codeNext = true, true
			}
			continue
		}
		if name == "cd" || name == "pushd" {
			if argN == 0 {
				bases = sc.cd(w, bases)
			}
			argN++
			continue
		}
		first := argN == 0 && !inline && isInterpreter(name)
		sc.word(w, bases, strings.Contains(w.text, "/") || first, first && (name == "." || name == "source"), depth)
		argN++
	}
}

// cd adds the directories a `cd` word may name to bases (never removing
// one: the cd may fail, or run in a subshell).
func (sc *scanner) cd(w shellWord, bases []string) []string {
	out := bases[:len(bases):len(bases)]
	for _, p := range sc.resolve(w.text, bases) {
		if !contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// cutVar cuts a leading ${name} or $name (followed by "/" or the end).
func cutVar(w, name string) (string, bool) {
	if rest, ok := strings.CutPrefix(w, "${"+name+"}"); ok {
		return rest, true
	}
	if rest, ok := strings.CutPrefix(w, "$"+name); ok && (rest == "" || rest[0] == '/') {
		return rest, true
	}
	return "", false
}

// resolve returns the absolute, lexically cleaned paths word w may name.
func (sc *scanner) resolve(w string, bases []string) []string {
	if w == "" || w[0] == '~' {
		return nil
	}
	var heads []string
	rest := w
	for _, v := range hook.ProjectDirVars {
		if r, ok := cutVar(w, v); ok {
			heads, rest = []string{sc.cwd, sc.root}, r
			break
		}
	}
	if heads == nil {
		for _, v := range hook.PluginRootVars {
			if r, ok := cutVar(w, v); ok {
				if sc.plugin == "" {
					return nil
				}
				heads, rest = []string{sc.plugin}, r
				break
			}
		}
	}
	if strings.ContainsAny(rest, "$`\x00") {
		return nil
	}
	switch {
	case heads != nil:
	case filepath.IsAbs(rest):
		return []string{filepath.Clean(rest)}
	default:
		heads = bases
	}
	out := make([]string, 0, len(heads))
	for _, h := range heads {
		if p := filepath.Join(h, filepath.FromSlash(rest)); !contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// rel returns p relative to the root ("/" separators) if p is lexically
// below it.
func (sc *scanner) rel(p string) (string, bool) {
	r, err := filepath.Rel(sc.root, p)
	if err != nil || r == "." || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) || filepath.IsAbs(r) {
		return "", false
	}
	return filepath.ToSlash(r), true
}

// word records the candidates of one word.
func (sc *scanner) word(w shellWord, bases []string, absentOK, source bool, depth int) {
	for _, p := range sc.resolve(w.text, bases) {
		rel, ok := sc.rel(p)
		if !ok || !cleanRel(rel) {
			continue
		}
		if w.glob && strings.ContainsAny(rel, "*?[") {
			sc.globs[rel] = true
			continue
		}
		sc.add(rel, &cand{absentOK: absentOK, source: source, depth: depth, bases: bases})
	}
}

func (sc *scanner) add(rel string, c *cand) {
	if old, ok := sc.cands[rel]; ok {
		old.absentOK = old.absentOK || c.absentOK
		old.source = old.source || c.source
		return
	}
	sc.cands[rel] = c
	sc.order = append(sc.order, rel)
}

// pin resolves the candidates into Pins, following `.`/`source` lines of
// pinned shell scripts as it goes.
func (sc *scanner) pin(r *os.Root) (Pins, error) {
	p := Pins{Scripts: map[string]string{}, Links: map[string]string{}, Globs: map[string]string{}}
	pats := make([]string, 0, len(sc.globs))
	for pat := range sc.globs {
		pats = append(pats, pat)
	}
	sort.Strings(pats)
	for _, pat := range pats {
		matches := globMatches(sc.root, pat)
		p.Globs[pat] = hashList(matches)
		for _, m := range matches {
			sc.add(m, &cand{bases: []string{sc.cwd}})
		}
	}
	for i := 0; i < len(sc.order); i++ {
		rel := sc.order[i]
		c := sc.cands[rel]
		sum, target, content, err := pinOne(r, sc.root, rel, c.absentOK)
		if err != nil {
			return Pins{}, fmt.Errorf("pin %s: %w", rel, err)
		}
		if sum == "" {
			continue
		}
		p.Scripts[rel] = sum
		if target != "" {
			p.Links[rel] = target
		}
		if content != nil && c.depth < maxScanDepth && (c.source || looksShell(rel, content)) {
			sc.sourced(rel, content, c)
		}
	}
	if len(p.Scripts) == 0 {
		p.Scripts = nil
	}
	if len(p.Links) == 0 {
		p.Links = nil
	}
	if len(p.Globs) == 0 {
		p.Globs = nil
	}
	return p, nil
}

// pinOne pins one path: its content hash (and link target when it leads
// outside the root), AbsentPin, or "" for not pinned (a directory, or
// nothing there when absentOK is false). content is the file's bytes when
// they are at most maxScanBytes.
func pinOne(r *os.Root, root, rel string, absentOK bool) (sum, target string, content []byte, err error) {
	fi, err := r.Stat(filepath.FromSlash(rel))
	switch {
	case err == nil && fi.IsDir():
		return "", "", nil, nil
	case err == nil && fi.Mode().IsRegular():
		f, err := fsid.OpenInRoot(r, filepath.FromSlash(rel))
		if err != nil {
			return "", "", nil, err
		}
		defer f.Close()
		sum, _, content, err := hashOpen(f, nil, true)
		return sum, "", content, err
	case err == nil:
		return AbsentPin, "", nil, nil // a FIFO, device or socket: never passes
	case fsid.IsNotExist(err):
		if absentOK {
			return AbsentPin, "", nil, nil
		}
		return "", "", nil, nil
	case fsid.IsEscape(err):
		full := filepath.Join(root, filepath.FromSlash(rel))
		t, eerr := filepath.EvalSymlinks(full)
		if eerr != nil {
			if fsid.IsNotExist(eerr) {
				return AbsentPin, "", nil, nil // a dangling link: nothing until its target appears
			}
			return "", "", nil, eerr
		}
		f, err := fsid.Open(t)
		if err != nil {
			return "", "", nil, err
		}
		defer f.Close()
		fi, err := f.Stat()
		if err != nil {
			return "", "", nil, err
		}
		if fi.IsDir() {
			return "", "", nil, nil
		}
		if !fi.Mode().IsRegular() {
			return AbsentPin, "", nil, nil
		}
		sum, _, content, err := hashOpen(f, nil, true)
		return sum, t, content, err
	}
	return "", "", nil, err
}

// looksShell reports whether a pinned file is a shell script.
func looksShell(rel string, content []byte) bool {
	switch path.Ext(rel) {
	case ".sh", ".bash", ".zsh", ".ksh":
		return true
	}
	if !bytes.HasPrefix(content, []byte("#!")) {
		return false
	}
	line, _, _ := bytes.Cut(content, []byte("\n"))
	for _, f := range strings.Fields(strings.TrimPrefix(string(line), "#!")) {
		if b := path.Base(f); shellNames[b] {
			return true
		}
	}
	return false
}

// sourced pins what a shell script sources with `.` or `source`.
func (sc *scanner) sourced(rel string, content []byte, c *cand) {
	dir := filepath.Dir(filepath.Join(sc.root, filepath.FromSlash(rel)))
	bases := c.bases          // a relative `. x` is relative to the process's directory, not the script's
	vars := map[string]bool{} // variables holding the script's directory
	words := splitShell(string(content))
	cmdPos, name := true, ""
	for _, w := range words {
		if w.op != "" {
			if w.op != "<" && w.op != ">" && w.op != ">>" && w.op != "<<" && w.op != "<<<" && w.op != "<<-" &&
				w.op != ">&" && w.op != "<&" && w.op != "&>" && w.op != "&>>" && w.op != ">|" && w.op != "<>" {
				cmdPos, name = true, ""
			}
			continue
		}
		if cmdPos {
			if k := strings.IndexByte(w.text, '='); k > 0 && isAssignment(w.text) {
				n, v := w.text[:k], w.text[k+1:]
				rest, ok := sc.cutScriptDir(v, vars)
				vars[n] = ok && rest == ""
				continue
			}
			if commandPrefixes[w.text] {
				continue
			}
			cmdPos, name = false, w.text
			continue
		}
		if name != "." && name != "source" {
			continue
		}
		name = "" // only the first operand
		text := w.text
		if rest, ok := sc.cutScriptDir(text, vars); ok {
			text = dir + rest
		}
		sc.word(shellWord{text: text, glob: w.glob}, bases, true, true, c.depth+1)
	}
}

// cutScriptDir cuts a leading "directory of this script" expression:
// $(dirname "$0"), ${0%/*}, $(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd),
// or $VAR / ${VAR} assigned from one.
func (sc *scanner) cutScriptDir(w string, vars map[string]bool) (string, bool) {
	if !strings.HasPrefix(w, "$") {
		return "", false
	}
	n := skipExpansion(w, 0)
	head, rest := w[:n], w[n:]
	if rest != "" && rest[0] != '/' {
		return "", false
	}
	if isScriptDirExpr(head) {
		return rest, true
	}
	name := strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(head, "$"), "{"), "}")
	if vars[name] {
		return rest, true
	}
	return "", false
}

// isScriptDirExpr reports whether an expansion computes the directory of
// the running script from $0 or BASH_SOURCE and nothing else.
func isScriptDirExpr(s string) bool {
	s = strings.Map(func(r rune) rune {
		if r == '"' || r == '\'' || r == ' ' || r == '\t' {
			return -1
		}
		return r
	}, s)
	switch s {
	case "${0%/*}", "${BASH_SOURCE%/*}", "${BASH_SOURCE[0]%/*}":
		return true
	}
	if !strings.HasPrefix(s, "$(") || !strings.Contains(s, "dirname") {
		return false
	}
	for _, v := range []string{"${BASH_SOURCE[0]}", "${BASH_SOURCE}", "$BASH_SOURCE", "${0}", "$0", "$("} {
		s = strings.ReplaceAll(s, v, "")
	}
	return !strings.ContainsAny(s, "$`;|")
}

// globMatches returns the root-relative matches of a root-relative pattern,
// sorted (nil when none or the pattern is malformed).
func globMatches(root, pattern string) []string {
	ms, err := filepath.Glob(filepath.Join(root, filepath.FromSlash(pattern)))
	if err != nil {
		return []string{"!" + err.Error()}
	}
	out := make([]string, 0, len(ms))
	for _, m := range ms {
		if r, err := filepath.Rel(root, m); err == nil && cleanRel(filepath.ToSlash(r)) {
			out = append(out, filepath.ToSlash(r))
		}
	}
	sort.Strings(out)
	return out
}

func hashList(ss []string) string {
	s := sha256.Sum256([]byte(strings.Join(ss, "\n")))
	return hex.EncodeToString(s[:])
}

// cleanRel reports whether rel is a clean, relative, "/"-separated path
// that stays below the root (as ScriptPaths produces).
func cleanRel(rel string) bool {
	return rel != "" && rel != "." && !strings.HasPrefix(rel, "/") && path.Clean(rel) == rel &&
		rel != ".." && !strings.HasPrefix(rel, "../")
}

// NewRecord returns the record that trusts h in workspaceID, with its
// snapshot and, when workspaceRoot is not empty, its script pins (session
// directory = the root). GrantedAt is left zero; Store.Grant stamps it.
func NewRecord(workspaceID string, h hook.Hook, workspaceRoot string) (Record, error) {
	var pins Pins
	if workspaceRoot != "" {
		var err error
		if pins, err = PinScripts(h, workspaceRoot); err != nil {
			return Record{}, err
		}
	}
	return NewPinnedRecord(workspaceID, h, pins), nil
}

// NewPinnedRecord returns the record that trusts h with the given pins.
func NewPinnedRecord(workspaceID string, h hook.Hook, pins Pins) Record {
	return Record{WorkspaceID: workspaceID, Digest: Digest(h), Snapshot: SnapshotOf(h),
		ScriptPins: pins.Scripts, ScriptLinks: pins.Links, ScriptGlobs: pins.Globs}
}

// pinsHold reports whether every pin still holds: each pinned file hashes
// as pinned (through the same link target for ScriptLinks), each absent pin
// still names nothing, each glob still has the same matches.
func pinsHold(p Pins, workspaceRoot string, c *HashCache) bool {
	if workspaceRoot == "" {
		return false
	}
	var r *os.Root
	for rel, want := range p.Scripts {
		if !cleanRel(rel) {
			return false
		}
		full := filepath.Join(workspaceRoot, filepath.FromSlash(rel))
		if want == AbsentPin {
			// One stat: the pin holds only while nothing is reachable there.
			if !fsid.Absent(full) {
				return false
			}
			continue
		}
		// Fast path: one stat. If the path still leads to the very file
		// (device, inode, size, mtime, ctime) verified before, its content
		// and sum are unchanged.
		key := pathKey{workspaceRoot, rel}
		if fi, err := os.Stat(full); err == nil {
			if sum, ok := c.lookupPath(key, fsid.Of(fi)); ok {
				if sum != want {
					return false
				}
				continue
			}
		}
		var got string
		var id fsid.ID
		var err error
		if target, ok := p.Links[rel]; ok {
			got, id, err = linkedHash(full, target, c)
		} else {
			if r == nil {
				if r, err = c.root(workspaceRoot); err != nil {
					return false
				}
			}
			got, id, err = pinnedHash(r, rel, c)
		}
		if err != nil || got != want {
			return false
		}
		c.storePath(key, id, got)
	}
	for pat, want := range p.Globs {
		if !cleanRel(pat) || hashList(globMatches(workspaceRoot, pat)) != want {
			return false
		}
	}
	return true
}

// pinnedHash hashes the regular file rel inside r (never outside it, even
// through symlinks: os.Root refuses to escape).
func pinnedHash(r *os.Root, rel string, c *HashCache) (string, fsid.ID, error) {
	if !cleanRel(rel) {
		return "", fsid.ID{}, errors.New("pin path is not a clean workspace-relative path")
	}
	f, err := fsid.OpenInRoot(r, filepath.FromSlash(rel))
	if err != nil {
		return "", fsid.ID{}, err
	}
	defer f.Close()
	sum, id, _, err := hashOpen(f, c, false)
	return sum, id, err
}

// linkedHash hashes the file full leads to, provided its symlinks still
// resolve to target.
func linkedHash(full, target string, c *HashCache) (string, fsid.ID, error) {
	t, err := filepath.EvalSymlinks(full)
	if err != nil {
		return "", fsid.ID{}, err
	}
	if t != target {
		return "", fsid.ID{}, fmt.Errorf("%s now leads to %s, not %s", full, t, target)
	}
	f, err := fsid.Open(t)
	if err != nil {
		return "", fsid.ID{}, err
	}
	defer f.Close()
	sum, id, _, err := hashOpen(f, c, false)
	return sum, id, err
}

// hashOpen hashes an open regular file (using c by identity), returning its
// content too when keep is set and it is at most maxScanBytes.
func hashOpen(f *os.File, c *HashCache, keep bool) (string, fsid.ID, []byte, error) {
	fi, err := f.Stat()
	if err != nil {
		return "", fsid.ID{}, nil, err
	}
	if !fi.Mode().IsRegular() {
		return "", fsid.ID{}, nil, fmt.Errorf("%s is not a regular file", f.Name())
	}
	id := fsid.Of(fi)
	if !keep {
		if sum, ok := c.lookup(id); ok {
			return sum, id, nil, nil
		}
	}
	h := sha256.New()
	var buf bytes.Buffer
	w := io.Writer(h)
	if keep && fi.Size() <= maxScanBytes {
		w = io.MultiWriter(h, &buf)
	}
	if _, err := io.Copy(w, f); err != nil {
		return "", fsid.ID{}, nil, err
	}
	sum := hex.EncodeToString(h.Sum(nil))
	c.store(id, sum)
	var content []byte
	if keep && fi.Size() <= maxScanBytes && buf.Len() <= maxScanBytes {
		content = buf.Bytes()
	}
	return sum, id, content, nil
}

// HashCache remembers SHA-256 sums of pinned files keyed by stat identity
// (device, inode, size, mtime, ctime, all to the nanosecond), and keeps the
// workspace root open for up to a second, so an admission check on an
// unchanged file costs open+fstat+close and no read. Safe for concurrent
// use; a nil *HashCache works and caches nothing.
type HashCache struct {
	mu    sync.Mutex
	sums  map[fsid.ID]string
	paths map[pathKey]pathEntry // verified (root, rel) -> file identity and sum
	roots map[string]rootEntry
}

type pathKey struct{ root, rel string }

type pathEntry struct {
	id  fsid.ID
	sum string
}

type rootEntry struct {
	r  *os.Root
	at time.Time
}

// NewHashCache returns an empty cache.
func NewHashCache() *HashCache {
	return &HashCache{sums: map[fsid.ID]string{}, paths: map[pathKey]pathEntry{}, roots: map[string]rootEntry{}}
}

// rootTTL bounds how long an opened workspace root is reused (a root that
// is moved or replaced is seen within this time). Replaced *os.Root values
// are closed by their finalizer, never while another check may use them.
const rootTTL = time.Second

// maxCachedSums bounds the hash cache.
const maxCachedSums = 4096

func (c *HashCache) root(path string) (*os.Root, error) {
	if c == nil {
		return os.OpenRoot(path)
	}
	c.mu.Lock()
	e, ok := c.roots[path]
	c.mu.Unlock()
	if ok && time.Since(e.at) < rootTTL {
		return e.r, nil
	}
	r, err := os.OpenRoot(path)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	c.roots[path] = rootEntry{r, time.Now()}
	c.mu.Unlock()
	return r, nil
}

func (c *HashCache) lookupPath(k pathKey, id fsid.ID) (string, bool) {
	if c == nil || !id.Unique() {
		return "", false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.paths[k]
	return e.sum, ok && e.id == id
}

func (c *HashCache) storePath(k pathKey, id fsid.ID, sum string) {
	if c == nil || !id.Unique() {
		return
	}
	c.mu.Lock()
	if len(c.paths) >= maxCachedSums {
		clear(c.paths)
	}
	c.paths[k] = pathEntry{id, sum}
	c.mu.Unlock()
}

func (c *HashCache) lookup(id fsid.ID) (string, bool) {
	if c == nil || !id.Unique() {
		return "", false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	sum, ok := c.sums[id]
	return sum, ok
}

func (c *HashCache) store(id fsid.ID, sum string) {
	if c == nil || !id.Unique() {
		return
	}
	c.mu.Lock()
	if len(c.sums) >= maxCachedSums {
		clear(c.sums) // edits leave old identities behind; start over
	}
	c.sums[id] = sum
	c.mu.Unlock()
}
