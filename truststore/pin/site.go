package pin

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/hookside/hookside/internal/hook"
)

// Site is where a declaration's command line is resolved: what decides
// which files the same declaration runs, so the pins of one Site say
// nothing about another (lifecycle-hooks-and-workspace-trust
// §"按什么摘要信任": trust covers what the user reviewed, and a session in
// another directory may run other files).
type Site struct {
	// Dir is the directory the hook process starts in: relative words
	// are resolved against it (and the workspace root). "" = the root.
	Dir string
	// ProjectDir is what ${ZCODE_PROJECT_DIR} / ${CLAUDE_PROJECT_DIR}
	// stand for (besides the root): the session directory. "" = Dir.
	ProjectDir string
	// Path holds the PATH entries (filepath.SplitList) the hook's bare
	// command names are looked up in. An entry inside the workspace root
	// (a relative entry counts from Dir; "" and "." are Dir) pins
	// entry/name for every bare command name, absent when nothing is
	// there: a file that appears there is a change.
	Path []string
}

// PinScriptsAt hashes what h's command line names inside workspaceRoot,
// resolved at the Site at (see the package comment; Site for what each
// field changes). It fails only on an I/O error other than "does not
// exist" (e.g. permission denied): a file that cannot be read cannot be
// pinned, so it cannot be trusted. On Windows it also fails, with an error
// wrapping ErrUnreadableSyntax, for a command line the POSIX-shell scanner
// cannot read (windowsSyntax: cmd or PowerShell, backslash paths, 8.3
// names, alternate data streams). An empty workspaceRoot pins nothing.
func PinScriptsAt(h hook.Hook, workspaceRoot string, at Site) (Pins, error) {
	p, _, _, err := resolveAt(h, workspaceRoot, at)
	return p, err
}

// resolveAt is PinScriptsAt, also returning the root-relative candidates
// that named nothing and so are not pinned (a bare command name, a text
// command's operand): their appearance changes the result too; and the
// paths before a ".." with what they were (noteLink).
func resolveAt(h hook.Hook, workspaceRoot string, at Site) (Pins, []string, map[string]string, error) {
	if workspaceRoot == "" {
		return Pins{}, nil, nil, nil
	}
	if checkWindowsSyntax {
		if err := windowsSyntax(h); err != nil {
			return Pins{}, nil, nil, err
		}
	}
	root, err := filepath.Abs(workspaceRoot)
	if err != nil {
		return Pins{}, nil, nil, err
	}
	cwd := root
	if at.Dir != "" {
		if cwd, err = filepath.Abs(at.Dir); err != nil {
			return Pins{}, nil, nil, err
		}
	}
	project := cwd
	if at.ProjectDir != "" {
		if project, err = filepath.Abs(at.ProjectDir); err != nil {
			return Pins{}, nil, nil, err
		}
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		return Pins{}, nil, nil, err
	}
	defer r.Close()
	sc := &scanner{root: root, cwd: cwd, project: project, path: pathDirs(at.Path, cwd),
		cands: map[string]*cand{}, globs: map[string]*globUse{}, rb: newReparse()}
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
		if why := dashAmbiguity(h); why != "" {
			sc.unfollow(h.Command + " (" + why + ")")
		}
		sc.scan(splitShellIn(h.Command, sc.rb), bases, 0)
		if h.Shell.Kind() == hook.ShellString {
			sc.scan(splitShellIn(h.Shell.Program(), sc.rb), bases, 0)
		} else {
			sc.assignedPath = nil                        // the line's own PATH does not choose its shell
			sc.lookPath(shellWord{text: "sh"}, bases, 0) // the shell that runs it, found in PATH
		}
	}
	sc.finish(bases)
	p, err := sc.pin(r)
	return p, sc.skipped, sc.links, err
}

// pathDirs returns the absolute PATH entries (relative ones against cwd;
// "" is cwd), cleaned and unique, in order.
func pathDirs(entries []string, cwd string) []string {
	var out []string
	for _, e := range entries {
		if e == "" {
			e = "."
		}
		if !filepath.IsAbs(e) {
			e = filepath.Join(cwd, e)
		}
		if e = filepath.Clean(e); !contains(out, e) {
			out = append(out, e)
		}
	}
	return out
}

// lookPath records, for a bare command name w (no "/"), the file each
// PATH entry inside the workspace root would offer for it (absent when
// none): which of them runs depends on the Site, and one appearing there
// may take the command over.
func (sc *scanner) lookPath(w shellWord, bases []string, depth int) {
	if w.dynamic || w.text == "" || strings.ContainsAny(w.text, "/$`\x00") || w.text[0] == '~' || w.text == "." || w.text == ".." {
		return
	}
	if strings.ContainsRune(w.text, filepath.Separator) {
		return
	}
	for _, list := range [][]string{sc.path, sc.assignedPath} {
		for _, d := range list {
			if _, ok := sc.rel(d); !ok && d != sc.root {
				continue
			}
			sc.word(shellWord{text: filepath.Join(d, w.text), glob: w.glob}, bases, true, false, depth)
		}
	}
}
