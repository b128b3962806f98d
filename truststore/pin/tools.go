package pin

import (
	"path/filepath"
	"strings"
)

// runnerConfigs are the project configuration files a package runner
// reads from its package directory and each parent up to the root
// (pkgDirs): they change what a script or binary runs (.npmrc
// script-shell and node-options, .yarnrc.yml yarnPath and plugins,
// bunfig.toml preload, .pnpmfile.cjs hooks), so they are pinned, absent
// when missing.
var runnerConfigs = map[string][]string{
	"npm":  {".npmrc"},
	"npx":  {".npmrc"},
	"pnpm": {".npmrc", "pnpm-workspace.yaml", ".pnpmfile.cjs"},
	"pnpx": {".npmrc", "pnpm-workspace.yaml", ".pnpmfile.cjs"},
	"yarn": {".npmrc", ".yarnrc", ".yarnrc.yml"},
	"bun":  {".npmrc", "bunfig.toml"},
	"bunx": {".npmrc", "bunfig.toml"},
}

// runnerConfig pins the configuration files of package runner name
// (runnerConfigs) in every package directory of dirs.
func (sc *scanner) runnerConfig(name string, dirs []string, depth int) {
	for _, d := range sc.pkgDirs(dirs) {
		for _, f := range runnerConfigs[name] {
			sc.word(shellWord{text: filepath.Join(d, f)}, dirs, true, false, depth)
		}
	}
}

// taskRunnerFiles are the task files a task runner looks for in its
// directory and each parent (just, rake, task) or its own directory (tox,
// nox, invoke), in which the task a hook names is code: `just lint` runs
// the justfile's lint recipe, so an edit of the justfile changes what the
// hook runs. They are pinned absent when missing, in every directory of
// pkgDirs (the session directory and the root, and their parents up to
// the root), a directory (rakelib, an invoke tasks package) as its tree;
// what they import or include otherwise is not followed.
var taskRunnerFiles = map[string][]string{
	"just":   {"justfile", "Justfile", ".justfile", "JUSTFILE"},
	"rake":   {"Rakefile", "rakefile", "Rakefile.rb", "rakefile.rb", "rakelib"},
	"task":   {"Taskfile.yml", "taskfile.yml", "Taskfile.yaml", "taskfile.yaml", "Taskfile.dist.yml", "taskfile.dist.yml", "Taskfile.dist.yaml", "taskfile.dist.yaml"},
	"tox":    {"tox.ini", "tox.toml", "pyproject.toml", "setup.cfg", "toxfile.py"},
	"nox":    {"noxfile.py"},
	"invoke": {"tasks.py", "tasks", "invoke.yaml", "invoke.yml"},
	"inv":    {"tasks.py", "tasks", "invoke.yaml", "invoke.yml"},
}

// taskFiles pins the task files of task runner name (taskRunnerFiles) in
// every package directory of dirs, absent when missing.
func (sc *scanner) taskFiles(name string, dirs []string, depth int) {
	for _, d := range sc.pkgDirs(dirs) {
		for _, f := range taskRunnerFiles[name] {
			sc.word(shellWord{text: filepath.Join(d, f)}, dirs, true, false, depth)
		}
	}
}

// makeNames are the default makefiles GNU make looks for, in its order.
var makeNames = []string{"GNUmakefile", "makefile", "Makefile"}

// makeValueOpts are make's short options that take the next word as
// their value (when not attached), and what it is: 'C' a directory,
// 'f' a makefile, 'o' anything else (a target, a count, a directory to
// search for included makefiles).
var makeValueOpts = map[string]byte{"-C": 'C', "--directory": 'C', "-f": 'f', "--file": 'f', "--makefile": 'f',
	"-I": 'o', "--include-dir": 'o', "-o": 'o', "--old-file": 'o', "--assume-old": 'o', "-W": 'o', "--what-if": 'o',
	"--new-file": 'o', "--assume-new": 'o', "-j": 'o', "--jobs": 'o', "-l": 'o', "--load-average": 'o', "-O": 'o',
	"--output-sync": 'o', "--eval": 'e'}

// makeRun is where make stands in its command line.
type makeRun struct {
	dirs []string // the make directories (bases, plus -C values)
	next byte     // the next word is the value of an option of this kind (makeValueOpts); 0 none
}

// makefiles pins the default makefiles (makeNames) in each of dirs,
// absent when missing: a makefile is code make runs.
func (sc *scanner) makefiles(dirs []string, depth int) {
	for _, d := range dirs {
		for _, n := range makeNames {
			sc.makefile(shellWord{text: filepath.Join(d, n)}, dirs, depth)
		}
	}
}

// makefile pins w, a makefile make reads, as absent when missing, and
// marks it for noteIncludes.
func (sc *scanner) makefile(w shellWord, dirs []string, depth int) {
	sc.word(w, dirs, true, false, depth)
	if w.dynamic {
		return
	}
	ps, _ := sc.follow(w, dirs)
	for _, p := range ps {
		if rel, ok := sc.rel(p); ok {
			if sc.makeRead == nil {
				sc.makeRead = map[string]bool{}
			}
			sc.makeRead[rel] = true
		}
	}
}

// noteIncludes lists makefile rel in Pins.Unfollowed when a line of its
// content starts with include, -include or sinclude: what it includes
// is not pinned.
func (sc *scanner) noteIncludes(rel string, content []byte) {
	for _, line := range strings.Split(string(content), "\n") {
		f := strings.Fields(line)
		if len(f) > 1 && (f[0] == "include" || f[0] == "-include" || f[0] == "sinclude") {
			sc.unfollow(rel + " (its include lines are not followed: the included makefiles are not pinned)")
			return
		}
	}
}

// recipes scans the recipe lines of makefile rel (content; a line that
// starts with a tab, its @, - and + prefixes dropped, $$ read as $) as
// command lines run in the makefile's directory: a recipe's script is
// what the hook runs. Every recipe counts, whichever target the hook
// names. A recipe with a make variable or function ($(X), ${X}, $X) is
// listed in Pins.Unfollowed: make expands it before the shell sees it.
func (sc *scanner) recipes(rel string, content []byte, c *cand) {
	if c.depth >= maxScanDepth || len(content) > maxScanBytes {
		return
	}
	dir := filepath.Dir(filepath.Join(sc.root, filepath.FromSlash(rel)))
	for _, line := range strings.Split(string(content), "\n") {
		if !strings.HasPrefix(line, "\t") {
			continue
		}
		code := strings.TrimLeft(strings.TrimPrefix(line, "\t"), "@-+ \t")
		if code == "" || strings.HasPrefix(code, "#") {
			continue
		}
		listed := strings.Contains(strings.ReplaceAll(code, "$$", ""), "$")
		if listed {
			sc.unfollow(rel + ": " + code + " (a make variable in a recipe is not expanded: what it runs is not pinned)")
			sc.quiet++ // listed whole, not its words as well
		}
		sc.code(shellWord{text: strings.ReplaceAll(code, "$$", "$")}, []string{dir}, c.depth+1)
		if listed {
			sc.quiet--
		}
	}
}

// makeWord handles operand w of make: -C DIR adds a make directory (its
// makefiles are pinned), -f FILE pins FILE, --eval's text is scanned as a
// makefile is not (listed unfollowed), an assignment's value is pinned
// as any; a target is pinned (absent when missing) in each make
// directory: a file or directory of that name makes a target that is not
// .PHONY up to date, and its recipe — the hook's check — does not run.
// The makefile's `include` lines are not followed (a documented limit).
func (sc *scanner) makeWord(w shellWord, st *makeRun, depth int) {
	if kind := st.next; kind != 0 {
		st.next = 0
		sc.makeValue(kind, w, st, depth)
		return
	}
	t := w.text
	switch {
	case strings.HasPrefix(t, "--"):
		k := strings.IndexByte(t, '=')
		if k < 0 {
			st.next = makeValueOpts[t]
			return
		}
		if kind, ok := makeValueOpts[t[:k]]; ok {
			sc.makeValue(kind, w.from(k+1), st, depth)
		}
	case len(t) > 1 && t[0] == '-':
		// A cluster of flags (-sk), ending in at most one value option
		// whose value is attached (-Csub, -fmk) or the next word.
		for i := 1; i < len(t); i++ {
			kind, ok := makeValueOpts["-"+t[i:i+1]]
			if !ok {
				continue
			}
			if i+1 < len(t) {
				sc.makeValue(kind, w.from(i+1), st, depth)
			} else {
				st.next = kind
			}
			return
		}
	case isAssignment(t):
		sc.assignment(w, st.dirs, depth)
	case !w.dynamic && t != "" && !strings.ContainsAny(t, "/\x00"):
		for _, d := range st.dirs {
			sc.word(shellWord{text: filepath.Join(d, t)}, st.dirs, true, false, depth)
		}
	}
}

// makeValue handles the value of one of make's value options.
func (sc *scanner) makeValue(kind byte, w shellWord, st *makeRun, depth int) {
	switch kind {
	case 'C':
		before := len(st.dirs)
		st.dirs = sc.cd(w, st.dirs, depth)
		sc.makefiles(st.dirs[before:], depth)
	case 'f':
		sc.makefile(w, st.dirs, depth)
	case 'e':
		sc.unfollow("make --eval " + w.text)
	}
}

// dataReaders are linters, formatters, type checkers and searchers: they
// read the files and directories their operands name and do not run
// them, so an operand of theirs (a source tree, `.`, `./...`) and their
// subcommand words (`ruff check`, `golangci-lint run`) are not pinned,
// and an edit of the code they check keeps the grant. A long option's
// attached value (`--config=FILE`) is pinned: what a tool loads as
// configuration or plugin may be code, and so is the separate value of a
// code-loading option (readerCodeOpts: `eslint --rulesdir DIR`, `rg --pre
// CMD`). What they load without being told
// (eslint.config.js, a mypy plugin, golangci-lint's custom linters, the
// .git/config of git) is a documented limit. jq's filter operand
// (`jq -r '.tool_input.command'`) is its program text, not a file; the
// program files it loads (`-f FILE`, modules under `-L DIR`) are pinned.
var dataReaders = map[string]bool{"ruff": true, "eslint": true, "prettier": true, "black": true, "isort": true,
	"flake8": true, "mypy": true, "tsc": true, "shellcheck": true, "biome": true, "stylelint": true,
	"markdownlint": true, "markdownlint-cli2": true, "golangci-lint": true, "gofmt": true, "grep": true,
	"egrep": true, "fgrep": true, "rg": true, "git": true, "jq": true}

// readerCodeOpts are the options of data readers whose separate value
// names a file or directory the tool loads as configuration or code (a
// plugin, rules, a preprocessor): that value is pinned as any operand.
var readerCodeOpts = map[string]map[string]bool{
	"rg":                {"--pre": true},
	"jq":                {"-f": true, "--from-file": true, "-L": true},
	"eslint":            {"-c": true, "--config": true, "--rulesdir": true, "--plugin": true, "--resolve-plugins-relative-to": true, "-f": true, "--format": true},
	"prettier":          {"--config": true, "--plugin": true},
	"stylelint":         {"-c": true, "--config": true, "--config-basedir": true, "--custom-syntax": true, "--custom-formatter": true},
	"ruff":              {"--config": true},
	"black":             {"--config": true},
	"isort":             {"--settings-path": true, "--sp": true, "--settings-file": true},
	"flake8":            {"--config": true, "--append-config": true},
	"mypy":              {"--config-file": true},
	"biome":             {"--config-path": true},
	"markdownlint":      {"-c": true, "--config": true, "-r": true, "--rules": true},
	"markdownlint-cli2": {"--config": true},
	"golangci-lint":     {"-c": true, "--config": true},
	"shellcheck":        {"--rcfile": true},
}

// gitValueOpts are git's options before the subcommand that take the next
// word as their value.
var gitValueOpts = map[string]bool{"-C": true, "-c": true, "--git-dir": true, "--work-tree": true, "--namespace": true,
	"--exec-path": true, "--config-env": true}

// gitDataSubs are the git subcommands whose operands are data (paths,
// revisions, patterns). Any other (bisect run, rebase --exec, submodule
// foreach, filter-branch, difftool -x, an alias) may run an operand: its
// operands are pinned as any command's.
var gitDataSubs = map[string]bool{"diff": true, "status": true, "show": true, "log": true, "ls-files": true,
	"rev-parse": true, "branch": true, "describe": true, "grep": true, "blame": true, "shortlog": true,
	"diff-index": true, "diff-files": true, "diff-tree": true, "ls-tree": true, "cat-file": true, "add": true,
	"rm": true, "mv": true, "restore": true, "checkout": true, "switch": true, "reset": true, "stash": true,
	"commit": true, "tag": true, "fetch": true, "pull": true, "push": true, "merge-base": true, "name-rev": true,
	"for-each-ref": true, "symbolic-ref": true, "rev-list": true, "check-ignore": true, "check-attr": true,
	"hash-object": true, "format-patch": true, "apply": true, "config": true, "remote": true}

// readerRun is where a data reader stands in its command line.
type readerRun struct {
	opt  string // an option awaiting its separate value (git's -C, -c …)
	sub  bool   // git: the subcommand was seen
	runs bool   // git: the subcommand is not in gitDataSubs: the rest is scanned as any command's
}

// runsCode scans an operand of a git subcommand that may run code (not
// in gitDataSubs) as a command line too, besides pinning it as a word:
// `git submodule foreach 'sh x.sh'`, `git rebase --exec 'make t'`, the
// value of `--exec=CMD`.
func (sc *scanner) runsCode(w shellWord, bases []string, depth int) {
	switch k := strings.IndexByte(w.text, '='); {
	case strings.HasPrefix(w.text, "--") && k > 0:
		sc.code(w.from(k+1), bases, depth)
	case !strings.HasPrefix(w.text, "-"):
		sc.code(w, bases, depth)
	}
}

// readerWord handles operand w of data reader name (dataReaders) and
// reports whether it consumed it: only a long option's `=VALUE` and the
// separate value of an option in readerCodeOpts are pinned, and for git the value of `-c KEY=VALUE` (core.fsmonitor, an
// alias: it may be a command line). git's subcommand is consumed; one not
// in gitDataSubs sets st.runs, and its operands are then pinned as any.
func (sc *scanner) readerWord(name string, w shellWord, st *readerRun, bases []string, depth int) bool {
	if opt := st.opt; opt != "" {
		st.opt = ""
		switch k := strings.IndexByte(w.text, '='); {
		case name == "git" && opt == "-c" && k > 0:
			sc.assignValue("", shellWord{text: w.text[k+1:], glob: w.glob}, bases, depth)
		case name != "git":
			sc.word(w, bases, true, false, depth) // readerCodeOpts
		}
		return true
	}
	if readerCodeOpts[name][w.text] {
		st.opt = w.text
		return true
	}
	if !strings.HasPrefix(w.text, "-") {
		if name == "git" && !st.sub {
			st.sub = true
			st.runs = w.dynamic || !gitDataSubs[w.text]
		}
		return true
	}
	if name == "git" && !st.sub && gitValueOpts[w.text] {
		st.opt = w.text
		return true
	}
	if k := strings.IndexByte(w.text, '='); k > 0 && strings.HasPrefix(w.text, "--") {
		sc.word(w.from(k+1), bases, true, false, depth)
	}
	return true
}
