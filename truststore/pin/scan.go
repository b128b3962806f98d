package pin

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/hookside/hookside/internal/hook"
)

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

// PinScriptsIn pins the files h names for a session whose directory is
// cwd ("" = the root): PinScriptsAt with Site{Dir: cwd}.
func PinScriptsIn(h hook.Hook, workspaceRoot, cwd string) (Pins, error) {
	return PinScriptsAt(h, workspaceRoot, Site{Dir: cwd})
}

// validSum reports whether d is 64 lowercase hex digits.
func validSum(d string) bool {
	if len(d) != 64 {
		return false
	}
	for i := 0; i < len(d); i++ {
		c := d[i]
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
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
	project           string   // what the project-dir variables stand for (Site.ProjectDir)
	path              []string // PATH entries, absolute (Site.Path)
	// assignedPath are the entries of the PATH assignments of the command
	// line (`PATH=bin:$PATH tool`, `export PATH=…`), absolute, each from
	// every base: lookPath consults them after path (assignPath).
	assignedPath []string
	cands        map[string]*cand
	order        []string
	skipped      []string            // candidates that named nothing and are not pinned (Matches re-checks them)
	links        map[string]string   // paths before a "..", and what they were (noteLink; Matches re-checks them)
	globs        map[string]*globUse // glob patterns as written (root-relative)
	unfollowed   []string            // words with an expansion follow does not know (Pins.Unfollowed)
	// nocase: a nocaseglob option appears (noteOption): glob pins match
	// case-insensitively.
	nocase bool
	// dynCode: the line runs code built from expansions (scanner.code);
	// assigned are its assignment values, scanned as code then (finish).
	dynCode  bool
	assigned []string
	rb       *reparse // what nested text may still be parsed again
	// makeRead are the candidates make reads as makefiles (root-relative):
	// one with include lines is listed in Pins.Unfollowed (noteIncludes).
	makeRead map[string]bool
	quiet    int // > 0 inside a code string listed whole (unfollow)
	// manifests are the package.json files read so far (scanner.manifest).
	manifests map[string]manifestRead
}

// globUse is how a glob pattern was written: as the first operand of
// `.`/`source` (its matches are scanned for what they source), and at
// which source depth.
type globUse struct {
	source bool
	depth  int
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
	// shellKeywords keep the next word in command position.
	shellKeywords = map[string]bool{"then": true, "do": true, "else": true, "elif": true, "if": true,
		"while": true, "until": true, "!": true, "{": true, "}": true}
	// wrappers keep the next word in command position too, and run it as
	// a program found on PATH or by path.
	wrappers = map[string]bool{"exec": true, "env": true, "nohup": true, "time": true, "command": true, "builtin": true,
		"nice": true, "sudo": true, "doas": true, "setsid": true, "stdbuf": true, "chrt": true, "ionice": true,
		"timeout": true, "xargs": true, "npx": true, "bunx": true, "pnpx": true, "uvx": true, "flock": true, "nocorrect": true}
	// subWrappers are "program subcommand" pairs that run their next word.
	subWrappers = map[string]bool{"uv run": true, "uv tool": true, "npm exec": true, "npm x": true, "pnpm exec": true, "pnpm dlx": true,
		"yarn exec": true, "yarn dlx": true, "bun x": true, "poetry run": true, "pipenv run": true, "pdm run": true,
		"hatch run": true, "rye run": true, "pixi run": true, "deno run": true, "bun run": true}
	// testSyntax are the closing words of `[ … ]` and `[[ … ]]`.
	testSyntax = map[string]bool{"]": true, "]]": true}
)

// isCommandPrefix reports whether w keeps the next word in command
// position: a shell keyword or a wrapper.
func isCommandPrefix(w string) bool { return shellKeywords[w] || wrappers[w] }

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

// option pins the value an option word carries: after "=" (--opt=x), or
// after the letter of a short option (-Ilib, -rx). The next word, an
// option's separate value, is pinned as an operand.
func (sc *scanner) option(w shellWord, bases []string, depth int) {
	switch k := strings.IndexByte(w.text, '='); {
	case k > 0:
		sc.word(shellWord{text: w.text[k+1:], glob: w.glob}, bases, true, false, depth)
	case len(w.text) > 2 && w.text[1] != '-':
		sc.word(shellWord{text: w.text[2:], glob: w.glob}, bases, true, false, depth)
	}
}

// isDuration reports whether w is a count or duration (5, 1.5, 10s, 2m).
func isDuration(w string) bool {
	w = strings.TrimRight(w, "smhd")
	return allDigits(strings.Replace(w, ".", "", 1))
}

// cd adds the directories a `cd` word may name to bases (never removing
// one: the cd may fail, or run in a subshell), a glob's every match.
func (sc *scanner) cd(w shellWord, bases []string, depth int) []string {
	out := bases[:len(bases):len(bases)]
	ps, _ := sc.follow(w, bases)
	for _, p := range ps {
		out = appendNew(out, p)
		// `cd h*`: the shell enters the first match, so every current
		// match is a directory the line may run in; the pattern's match
		// set is pinned, so a new match is a change.
		if rel, ok := sc.rel(p); ok && w.glob && isPattern(rel) {
			sc.word(w, bases, true, false, depth)
			ms, _ := globMatches(sc.root, rel)
			for _, m := range ms {
				if !strings.HasPrefix(m, "!") {
					out = appendNew(out, filepath.Join(sc.root, filepath.FromSlash(m)))
				}
			}
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
	if w.dynamic || isURL(w.text) {
		return
	}
	ps, whole := sc.follow(w, bases)
	if !whole && (absentOK || hasPathSep(w.text)) {
		sc.unfollow(w.text)
	}
	for _, p := range ps {
		rel, ok := sc.rel(p)
		if p == sc.root && absentOK {
			sc.unfollow(w.text + rootWord)
		}
		if !ok || !cleanRel(rel) {
			continue
		}
		if w.glob && isPattern(rel) {
			if g := sc.globs[rel]; g == nil {
				sc.globs[rel] = &globUse{source: source, depth: depth}
			} else {
				g.source, g.depth = g.source || source, min(g.depth, depth)
			}
			// The shell runs the word as written when nothing matches
			// (or under `set -f`): that file counts when it exists.
			sc.add(rel, &cand{source: source, depth: depth, bases: bases})
			continue
		}
		sc.add(rel, &cand{absentOK: absentOK, source: source, depth: depth, bases: bases})
	}
}

// isURL reports whether w starts with a URL scheme (https://, s3://,
// git+ssh://): a URL, not a path.
func isURL(w string) bool {
	i := strings.Index(w, "://")
	if i <= 0 {
		return false
	}
	for j := 0; j < i; j++ {
		c := w[j]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || j > 0 && (c >= '0' && c <= '9' || c == '+' || c == '.' || c == '-')) {
			return false
		}
	}
	return true
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
	p := Pins{Scripts: map[string]string{}, Links: map[string]string{}, Globs: map[string]string{}, Dirs: map[string]bool{}}
	done := map[string]bool{} // effective patterns resolved
	for i := 0; ; {
		// Globs first (a sourced script may add patterns, or turn
		// nocaseglob on: then every pattern is resolved again).
		pats := make([]string, 0, len(sc.globs))
		for pat := range sc.globs {
			pats = append(pats, pat)
		}
		sort.Strings(pats)
		for _, pat := range pats {
			eff := globPattern(pat, sc.nocase)
			if done[eff] {
				continue
			}
			done[eff] = true
			matches, err := globMatches(sc.root, eff)
			if err != nil {
				return Pins{}, fmt.Errorf("pin %s: %w", pat, err)
			}
			p.Globs[eff] = hashList(matches)
			g := sc.globs[pat]
			for _, m := range matches {
				sc.add(m, &cand{source: g.source, depth: g.depth, bases: []string{sc.cwd}})
			}
		}
		if i == len(sc.order) {
			break
		}
		for ; i < len(sc.order); i++ {
			rel := sc.order[i]
			c := sc.cands[rel]
			sum, target, dir, content, err := pinOne(r, sc.root, rel, c.absentOK)
			if err != nil {
				return Pins{}, fmt.Errorf("pin %s: %w", rel, err)
			}
			if sum == "" {
				sc.skipped = append(sc.skipped, rel) // named nothing, not pinned as absent
				continue
			}
			p.Scripts[rel] = sum
			if target != "" {
				p.Links[rel] = target
			}
			if dir {
				p.Dirs[rel] = true
			}
			if sc.makeRead[rel] {
				sc.noteIncludes(rel, content)
				sc.recipes(rel, content, c)
			}
			if content != nil && c.depth < maxScanDepth && (c.source || looksShell(rel, content)) {
				if len(content) > maxScanBytes {
					// Read whole or not at all: a `.` line past the bound
					// would run unseen.
					return Pins{}, fmt.Errorf("pin %s: a shell script over %d bytes cannot be read for what it sources: %w",
						rel, maxScanBytes, ErrUnpinnable)
				}
				sc.sourced(rel, content, c)
			}
		}
	}
	if len(p.Scripts) == 0 {
		p.Scripts = nil
	}
	if len(sc.unfollowed) > 0 {
		p.Unfollowed = slices.Sorted(slices.Values(sc.unfollowed))
	}
	if len(p.Links) == 0 {
		p.Links = nil
	}
	if len(p.Globs) == 0 {
		p.Globs = nil
	}
	if len(p.Dirs) == 0 {
		p.Dirs = nil
	}
	return p, nil
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
	// A relative `. x` is relative to the process's directory, not the
	// script's; vars are the variables holding the script's directory.
	sc.sourcedWords(splitShellIn(string(content), sc.rb), dir, c.bases, map[string]bool{}, c.depth, 0)
}

// sourcedWords reads one script's (or code string's) tokens for `.` and
// `source`: the first operand of each is pinned and read in turn. The code
// string of eval (its operands joined) and of a shell's -c is read the same
// way, nest levels deep (up to maxScanDepth); one built from expansions is
// listed in Pins.Unfollowed. Notes (noteOp) are listed; a `. FILE` the
// flattener emits for code read from a file (`. /dev/stdin < F`, `source
// <(cat F)`) is read like any other.
func (sc *scanner) sourcedWords(words []shellWord, dir string, bases []string, vars map[string]bool, depth, nest int) {
	cmdPos, name := true, ""
	var codeNext bool
	var joined []shellWord
	flush := func() {
		if len(joined) == 0 {
			return
		}
		j := shellWord{}
		for _, w := range joined {
			j.text += " " + w.text
			j.code += " " + w.codeText()
			j.expands = j.expands || w.expands
		}
		j.text, j.code = j.text[1:], j.code[1:]
		joined = nil
		sc.sourcedCode(j, dir, bases, vars, depth, nest)
	}
	for _, w := range words {
		if w.op == noteOp {
			sc.unfollow(w.text)
			continue
		}
		if w.op == pathOp { // a path a line of the script may run: not followed
			continue
		}
		if w.op != "" {
			if w.op != "<" && w.op != ">" && w.op != ">>" && w.op != "<<" && w.op != "<<<" && w.op != "<<-" &&
				w.op != ">&" && w.op != "<&" && w.op != "&>" && w.op != "&>>" && w.op != ">|" && w.op != "<>" {
				flush()
				cmdPos, name, codeNext = true, "", false
			}
			continue
		}
		sc.noteOption(w.text) // shopt -s nocaseglob in a sourced script
		if cmdPos {
			if k := strings.IndexByte(w.text, '='); k > 0 && isAssignment(w.text) {
				n, v := w.text[:k], w.text[k+1:]
				if n == "PATH" {
					// The command line's names after the `.` are looked up
					// there, and that lookup is not redone for it.
					sc.unfollow(w.text + " (set by a sourced script: the commands found through it are not pinned)")
				}
				rest, ok := sc.cutScriptDir(v, vars)
				vars[n] = ok && rest == ""
				continue
			}
			if isCommandPrefix(w.text) {
				continue
			}
			cmdPos, name = false, path.Base(w.text)
			continue
		}
		switch {
		case name == "eval":
			if w.text != "--" || len(joined) > 0 {
				joined = append(joined, w)
			}
			continue
		case codeNext && !strings.HasPrefix(w.text, "-"):
			codeNext, name = false, ""
			sc.sourcedCode(w, dir, bases, vars, depth, nest)
			continue
		case shellNames[name] && strings.HasPrefix(w.text, "-") && !strings.HasPrefix(w.text, "--") && strings.Contains(w.text, "c"):
			codeNext = true
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
		sc.word(shellWord{text: text, glob: w.glob, dynamic: w.dynamic, literal: w.literal && text == w.text}, bases, true, true, depth+1)
	}
	flush()
}

// sourcedCode reads a code string of a script (eval's operands, a
// shell's -c) for what it sources (sourcedWords).
func (sc *scanner) sourcedCode(w shellWord, dir string, bases []string, vars map[string]bool, depth, nest int) {
	if w.expands || nest >= maxScanDepth || sc.rb.left < len(w.codeText()) {
		sc.unfollow(w.text)
		if w.expands && nest < maxScanDepth && sc.rb.left >= len(w.codeText()) {
			sc.sourcedWords(sc.rb.split(w.codeText()), dir, bases, vars, depth, nest+1)
		}
		return
	}
	sc.sourcedWords(sc.rb.split(w.codeText()), dir, bases, vars, depth, nest+1)
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
