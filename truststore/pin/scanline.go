package pin

import (
	"path"
	"path/filepath"
	"strings"
)

// wrapperValueOpts are the options of a wrapper that take the next word as
// their value: that word is pinned as an operand and the program comes
// after it (`sudo -u root sh -c …`, `exec -a name prog`).
var wrapperValueOpts = map[string]map[string]bool{
	"exec":    {"-a": true},
	"env":     {"-u": true, "--unset": true, "-C": true, "--chdir": true},
	"sudo":    {"-u": true, "-g": true, "-C": true, "-D": true, "-h": true, "-p": true, "-r": true, "-t": true, "-U": true, "-T": true},
	"doas":    {"-u": true, "-C": true},
	"timeout": {"-s": true, "--signal": true, "-k": true, "--kill-after": true},
	"nice":    {"-n": true, "--adjustment": true},
	"ionice":  {"-c": true, "-n": true, "-p": true},
	"stdbuf":  {"-i": true, "-o": true, "-e": true},
	"xargs":   {"-I": true, "-n": true, "-L": true, "-P": true, "-d": true, "-E": true, "-s": true, "-a": true},
	"flock":   {"-w": true, "--timeout": true, "-E": true, "--conflict-exit-code": true},
	"time":    {"-f": true, "-o": true},
	"npx":     {"-p": true, "--package": true},
}

// cOptPrograms run the value of their -c (or --command) option with a
// shell, like a shell's own -c.
var cOptPrograms = map[string]bool{"su": true, "runuser": true, "flock": true, "script": true}

// longDashPrograms take long options after a single "-" (find -name,
// -exec): no letter of theirs starts an attached value. An option's value
// is the next word, pinned as an operand.
var longDashPrograms = map[string]bool{"find": true}

// watchValueOpts are watch's options that take a value.
var watchValueOpts = map[string]bool{"-n": true, "--interval": true, "-q": true, "--equexit": true}

// maxAssigned bounds the assignment values remembered for a dynamic eval
// (scanner.finish).
const maxAssigned = 64

// scan walks one command line's words. Every word after the program name
// (through wrappers: env, timeout, nice, exec, command, xargs, uv run, npx
// …) may name a file: operands, options' values (`-W x`, `-Ix`,
// `--opt=x`), assignment values. Each is a candidate that is pinned as
// absent when it names nothing. Inline code (`node -e CODE`) counts only
// where it names an existing file; `python -m mod` pins mod and mod.py.
// Code given as a string is scanned as a command line of its own (code):
// a shell's -c script (also after a shell name anywhere in the command:
// `find -exec sh -c`, `sudo -u root sh -c`), the operands of eval and
// watch joined by spaces, trap's action, an alias value, `su -c`, `env
// -S`; a program name that is not known (a variable, a glob) is taken for
// any of these.
func (sc *scanner) scan(words []shellWord, bases []string, depth int) {
	cmdPos, name, argN := true, "", 0
	var skip, redirIn, scriptNext, inline, codeNext, modNext, wrapped bool
	var valueNext, splitNext, shellArgs, cOpt, joinAll, trapDone, lockFile bool
	// operands: a "--" ended the program's options; every later word is
	// an operand, whatever it starts with (`sh -- -x.sh` runs ./-x.sh).
	var operands bool
	wrapper := ""
	var binRunner, scriptRun bool // npx NAME, bun run NAME: a package binary, a package.json script
	var pkg *pkgRun               // npm, yarn, pnpm, bun: subcommand and script
	var mk *makeRun               // make, gmake: directories and option values
	var rd readerRun              // a data reader's state (readerWord)
	var joined []shellWord
	flush := func() {
		if len(joined) > 0 {
			j := shellWord{}
			texts := make([]string, len(joined))
			for i, w := range joined {
				texts[i] = w.codeText()
				j.expands = j.expands || w.expands
			}
			j.code = strings.Join(texts, " ")
			for _, w := range joined {
				j.text += " " + w.text
			}
			j.text = j.text[1:]
			sc.code(j, bases, depth)
			joined = nil
		}
	}
	for _, w := range words {
		if w.op == noteOp {
			sc.unfollow(w.text)
			continue
		}
		if w.op == pathOp {
			sc.word(shellWord{text: w.text}, bases, true, false, depth)
			continue
		}
		if w.op != "" {
			switch w.op {
			case "<", "<>":
				redirIn = true
			case ">", ">>", ">|", "&>", "&>>", ">&", "<&", "<<", "<<-", "<<<":
				skip = true
			default:
				flush()
				cmdPos, name, argN, skip, redirIn, scriptNext, inline, codeNext, modNext, wrapped = true, "", 0, false, false, false, false, false, false, false
				valueNext, splitNext, shellArgs, cOpt, joinAll, trapDone, lockFile, wrapper = false, false, false, false, false, false, false, ""
				operands = false
				binRunner, scriptRun, pkg, mk, rd = false, false, nil, nil, readerRun{}
			}
			continue
		}
		sc.noteOption(w.text)
		isOpt := len(w.text) > 1 && w.text[0] == '-' && !operands
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
		case modNext:
			modNext = false
			for _, m := range moduleWords(w.text) {
				sc.word(shellWord{text: m}, bases, true, false, depth)
			}
			if dataReaders[w.text] { // python -m mypy src: mypy's operands are read, not run
				name, argN, rd = w.text, 0, readerRun{}
			}
			continue
		case scriptNext && !isOpt:
			// The first operand after -c (`bash -c -e 'x'` too).
			scriptNext = false
			argN++
			sc.code(w, bases, depth)
			continue
		case valueNext:
			valueNext = false
			if !isDuration(w.text) {
				sc.word(w, bases, true, false, depth)
			}
			continue
		case splitNext:
			splitNext = false
			sc.code(w, bases, depth)
			continue
		}
		if cmdPos {
			if isAssignment(w.text) {
				sc.assignment(w, bases, depth)
				continue
			}
			if wrapper == "flock" && !lockFile && !strings.HasPrefix(w.text, "-") && !isDuration(w.text) {
				// flock's lock file (or directory) comes before the program.
				lockFile = true
				sc.word(w, bases, true, false, depth)
				continue
			}
			if isCommandPrefix(w.text) {
				wrapped = wrapped || wrappers[w.text]
				binRunner = binRunner || binRunners[w.text]
				if binRunners[w.text] {
					sc.runnerConfig(w.text, bases, depth) // npx: .npmrc
				}
				if wrappers[w.text] {
					wrapper = w.text
				}
				continue
			}
			if strings.HasPrefix(w.text, "-") || wrapped && isDuration(w.text) {
				// A wrapper's option or count (nice -n 5, timeout 5).
				sc.option(w, bases, depth)
				sc.wrapperOption(wrapper, w, bases, depth, &valueNext, &splitNext)
				continue
			}
			cmdPos, argN, inline, operands = false, 0, false, false
			name = path.Base(w.text)
			if binRunner && !strings.Contains(w.text, "/") {
				sc.localBin(w.text, bases, depth) // npx tsx: node_modules/.bin/tsx
			}
			if scriptRun {
				sc.runScript([]string{w.text}, bases, depth) // bun run NAME: a script or a file
			}
			binRunner, scriptRun, pkg, mk, rd = false, false, nil, nil, readerRun{}
			switch name {
			case "npm", "yarn", "pnpm", "bun":
				pkg = &pkgRun{dirs: bases}
				sc.runnerConfig(name, bases, depth)
			case "make", "gmake":
				mk = &makeRun{dirs: bases}
				sc.makefiles(bases, depth)
			default:
				if taskRunnerFiles[name] != nil {
					sc.taskFiles(name, bases, depth) // just lint: the justfile
				}
			}
			// A bare command name is a PATH lookup: pinned only if such a
			// file happens to exist (over-inclusion), unless a wrapper
			// names it (env g.sh), which may run it from the workspace.
			sc.word(w, bases, strings.Contains(w.text, "/") || wrapped, false, depth)
			sc.lookPath(w, bases, depth)
			unknown := w.glob || w.opaque || w.dynamic || w.expands && !sc.known(w, bases)
			if unknown {
				// `$X -c …`, `$E 'code'`, `b*sh -c …`: any program.
				sc.unfollow(w.text)
				sc.dynCode = true
				name = "?"
			}
			shellArgs = shellNames[name] || unknown
			joinAll = name == "watch" || unknown
			cOpt = cOptPrograms[name]
			continue
		}
		if argN == 0 && subWrappers[name+" "+w.text] {
			// uv run X, npm exec X: X is in command position again.
			cmdPos, wrapped = true, true
			binRunner, scriptRun = binSubs[name+" "+w.text], name+" "+w.text == "bun run"
			continue
		}
		if pkg != nil && sc.pkgWord(name, w, pkg, depth) {
			argN++
			continue
		}
		if mk != nil {
			sc.makeWord(w, mk, depth)
			argN++
			continue
		}
		if dataReaders[name] && !rd.runs && sc.readerWord(name, w, &rd, bases, depth) {
			argN++
			continue
		}
		if rd.runs {
			sc.runsCode(w, bases, depth) // git submodule foreach 'CMD', git rebase --exec CMD
		}
		switch {
		case name == "eval":
			if w.text != "--" || len(joined) > 0 {
				joined = append(joined, w)
			}
			continue
		case name == "alias":
			if k := strings.IndexByte(w.text, '='); k > 0 {
				sc.code(w.from(k+1), bases, depth)
			}
		case name == "trap" && !trapDone && !isOpt:
			trapDone = true
			sc.code(w, bases, depth)
		case joinAll && !(name == "watch" && isOpt):
			joined = append(joined, w)
		}
		if w.text == "PATH" && pathSetters[name] {
			// `read PATH`, `printf -v PATH …`: PATH takes a value the
			// scan does not know, and the names after it are found there.
			sc.unfollow(name + " … PATH (PATH set at run time: the commands found through it are not pinned)")
		}
		assignment := isAssignment(w.text)
		if assignment {
			sc.assignment(w, bases, depth)
		}
		if isOpt && w.text == "--" {
			operands = true
			continue
		}
		if isOpt {
			if !shellNames[name] && !longDashPrograms[name] { // a shell's short options are flag clusters (-eu)
				sc.option(w, bases, depth)
			} else if k := strings.IndexByte(w.text, '='); k > 0 {
				sc.word(shellWord{text: w.text[k+1:], glob: w.glob}, bases, true, false, depth)
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
			case cOpt:
				switch {
				case strings.HasPrefix(w.text, "--command="):
					sc.code(w.from(len("--command=")), bases, depth)
				case w.text == "--command" || !strings.HasPrefix(w.text, "--") && strings.Contains(w.text, "c"):
					scriptNext = true
				}
			case shellArgs && !strings.HasPrefix(w.text, "--") && strings.Contains(w.text, "c"):
				scriptNext = true // a shell's -c after `find -exec sh`, `$X -c`
			case name == "watch" && watchValueOpts[w.text]:
				valueNext = true
			case strings.HasPrefix(name, "python") && w.text == "-m":
				inline, modNext = true, true
			case isInterpreter(name) && inlineOpts[w.text]:
				inline, codeNext = true, true
			}
			continue
		}
		if name == "cd" || name == "pushd" {
			if argN == 0 {
				bases = sc.cd(w, bases, depth)
			}
			argN++
			continue
		}
		first := argN == 0 && !inline && isInterpreter(name)
		if !testSyntax[w.text] && !(assignment && declBuiltins[name]) {
			sc.word(w, bases, !textCommands[name] || hasPathSep(w.text), first && (name == "." || name == "source"), depth)
		}
		if first {
			sc.entries(w, bases, name, depth) // python3 ., node tool
		}
		if !shellNames[name] && !w.glob && shellNames[path.Base(w.text)] {
			shellArgs = true // a shell run by this command: `find -exec sh -c`, `sudo -u root sh -c`
			operands = false // its options follow (`runuser -u x -- sh -c …`)
		}
		if !(first && w.glob) { // a glob may expand to nothing (nullglob): the next word is then first
			argN++
		}
	}
	flush()
}

// pathSetters are the builtins that can set a variable named as their
// operand to a value only known at run time (read, printf -v, mapfile,
// getopts); `for`/`select` loop variables are noted by the flattener.
var pathSetters = map[string]bool{"read": true, "printf": true, "mapfile": true, "readarray": true, "getopts": true}

// declBuiltins declare variables: an operand NAME=value of theirs is an
// assignment (assignValue), never a file name.
var declBuiltins = map[string]bool{"export": true, "readonly": true, "local": true, "declare": true, "typeset": true}

// assignValue pins what an assignment value may name, as an operand: the
// value whole (unless it is an option) and, when it holds blanks (a
// NODE_OPTIONS, PYTHONSTARTUP, BASH_ENV or ENV style value holding
// several options: `NODE_OPTIONS='--require ./r.js'`), each blank-separated
// field; an option's value counts for its path (option: `--require=./r.js`
// pins ./r.js); and, for a search-path list (pathListEntries), each entry.
func (sc *scanner) assignValue(name string, v shellWord, bases []string, depth int) {
	if entries := pathListEntries(name, v.text); entries != nil {
		// A search-path list (`PYTHONPATH=lib:/x`): each entry is a
		// directory the program may load from, pinned as an operand (a
		// directory as its tree).
		for _, e := range entries {
			sc.word(shellWord{text: e, glob: v.glob && strings.ContainsAny(e, "*?[")}, bases, true, false, depth)
		}
		return
	}
	fields := strings.Fields(v.text)
	if len(fields) <= 1 && !strings.HasPrefix(v.text, "-") {
		sc.word(v, bases, true, false, depth)
		return
	}
	if !strings.HasPrefix(v.text, "-") {
		sc.word(v, bases, true, false, depth) // a path with blanks
	}
	for _, f := range fields {
		fw := shellWord{text: f, glob: v.glob && strings.ContainsAny(f, "*?[")}
		if strings.HasPrefix(f, "-") {
			sc.option(fw, bases, depth)
		} else {
			sc.word(fw, bases, true, false, depth)
		}
	}
}

// wrapperOption handles an option of the wrapper in command position:
// `env -S 'prog args'` (also -Sprog, --split-string=…) is a command line
// of its own; an option in wrapperValueOpts takes the next word.
func (sc *scanner) wrapperOption(wrapper string, w shellWord, bases []string, depth int, valueNext, splitNext *bool) {
	if wrapper == "env" {
		switch t := w.text; {
		case t == "-S" || t == "--split-string":
			*splitNext = true
			return
		case strings.HasPrefix(t, "--split-string="):
			sc.code(w.from(len("--split-string=")), bases, depth)
			return
		case strings.HasPrefix(t, "-S"):
			sc.code(w.from(2), bases, depth)
			return
		}
	}
	if wrapper == "flock" && (w.text == "-c" || w.text == "--command") || wrapper == "npx" && (w.text == "-c" || w.text == "--call") {
		*splitNext = true // flock FILE -c 'command line'
		return
	}
	if wrapperValueOpts[wrapper][w.text] {
		*valueNext = true
	}
}

// from is w from byte i of its literal prefix on (`--command=CODE`,
// `NAME=CODE`, `-SCODE`): the prefix is the same in text and code.
func (w shellWord) from(i int) shellWord {
	out := shellWord{text: w.text[i:], expands: w.expands}
	if len(w.code) >= i {
		out.code = w.code[i:]
	}
	return out
}

// code scans a string the shell runs as a command line (a -c script, eval's
// operands, a trap action, …) as one of its own, up to maxScanDepth. A
// string built from expansions (eval "$X") is not known whole: it is
// listed in Pins.Unfollowed, its words pin what they name as far as they
// are known, and every assignment value of the command line is scanned as
// code too (finish).
func (sc *scanner) code(w shellWord, bases []string, depth int) {
	if w.expands {
		sc.unfollow(w.text)
		sc.dynCode = true
		sc.quiet++ // the string is listed whole, not its words as well
		defer func() { sc.quiet-- }()
	}
	if depth >= maxScanDepth || sc.rb.left < len(w.text) {
		// Nested too deep, or too much: its words are pinned as they
		// stand, and it is listed as not followed.
		sc.unfollow(w.text)
		for _, f := range splitFields(w.codeText()) {
			sc.word(f, bases, true, false, depth)
		}
		return
	}
	sc.scan(sc.rb.split(w.codeText()), bases, depth+1)
}

// assignment handles w, a NAME=value word (isAssignment): its value is
// remembered as code (assign) and pinned as an operand (assignValue).
func (sc *scanner) assignment(w shellWord, bases []string, depth int) {
	code := w.codeText()
	sc.assign(code[strings.IndexByte(code, '=')+1:])
	k := strings.IndexByte(w.text, '=')
	name := w.text[:k]
	v := shellWord{text: inheritedForm(name, w.text[k+1:]), glob: w.glob}
	if name == "PATH" && pathListEntries(name, v.text) != nil {
		// Only looked up in (assignPath): what is found there is pinned,
		// not each directory's tree.
		sc.assignPath(v, bases)
		return
	}
	if name == "PATH" {
		sc.assignPath(v, bases)
	}
	sc.assignValue(name, v, bases, depth)
}

// assignPath adds the entries of a PATH assignment's value to
// sc.assignedPath: the command names looked up after it (lookPath) may be
// found there (`PATH=bin:/usr/bin tool` runs bin/tool). A relative entry
// counts from every base ("" is the base itself); $PATH is the PATH
// already consulted; an entry follow does not know whole is listed in
// Pins.Unfollowed.
func (sc *scanner) assignPath(v shellWord, bases []string) {
	for _, e := range strings.Split(v.text, ":") {
		if isSelfRef("PATH", e) {
			continue
		}
		if e == "" {
			e = "."
		}
		ps, whole := sc.follow(shellWord{text: e}, bases)
		if !whole {
			sc.unfollow(e) // `PATH=$X:$PATH tool`: where tool is found is not known
		}
		for _, p := range ps {
			sc.assignedPath = appendNew(sc.assignedPath, filepath.Clean(p))
		}
	}
}

// isSelfRef reports whether e is the inherited value of variable name:
// $NAME or ${NAME} (not in the workspace: the environment's).
func isSelfRef(name, e string) bool { return name != "" && (e == "$"+name || e == "${"+name+"}") }

// inheritedForm rewrites the idioms that append or prepend a variable's
// inherited value only when it is set — ${NAME:+:$NAME}, ${NAME:+$NAME:}
// (with ${NAME} inside too) — as :$NAME and $NAME:, so that
// `PATH=bin${PATH:+:$PATH}` splits into bin and the inherited PATH.
func inheritedForm(name, v string) string {
	if name == "" || !strings.Contains(v, "${"+name+":+") {
		return v
	}
	for _, ref := range []string{"$" + name, "${" + name + "}"} {
		v = strings.ReplaceAll(v, "${"+name+":+:"+ref+"}", ":$"+name)
		v = strings.ReplaceAll(v, "${"+name+":+"+ref+":}", "$"+name+":")
	}
	return v
}

// pathListEntries are the entries of a search-path value (PATH,
// PYTHONPATH, NODE_PATH, CLASSPATH style: entries separated by ":") that
// may name workspace directories: each but the inherited value of the
// variable assigned (name: $PATH in PATH=…; name "" for none). nil when v
// is not such a list: no ":", a URL, an option or options (a leading "-",
// blanks: `--inspect=127.0.0.1:9229`).
func pathListEntries(name, v string) []string {
	if !strings.Contains(v, ":") || isURL(v) || strings.HasPrefix(v, "-") || strings.ContainsAny(v, " \t\n") {
		return nil
	}
	var out []string
	for _, e := range strings.Split(v, ":") {
		if e != "" && !isSelfRef(name, e) {
			out = append(out, e)
		}
	}
	return out
}

// assign remembers an assignment value for finish.
func (sc *scanner) assign(v string) {
	if v != "" && len(sc.assigned) < maxAssigned && !contains(sc.assigned, v) {
		sc.assigned = append(sc.assigned, v)
	}
}

// finish runs after the command line is scanned: when it runs code built
// from expansions (eval "$X", `$X -c …`), the values it assigns
// (`X='bash hooks/a.sh'`) may be that code, so each is scanned as a
// command line.
func (sc *scanner) finish(bases []string) {
	if !sc.dynCode {
		return
	}
	for _, v := range sc.assigned {
		sc.scan(sc.rb.split(v), bases, 1)
	}
}

// known reports whether a word with an expansion is one follow knows
// whole (${CLAUDE_PROJECT_DIR}/x.sh, $PWD/x).
func (sc *scanner) known(w shellWord, bases []string) bool {
	_, whole := sc.follow(w, bases)
	return whole
}

// unfollow lists a word in Pins.Unfollowed (once), as written.
func (sc *scanner) unfollow(text string) {
	if sc.quiet > 0 {
		return
	}
	text = strings.ReplaceAll(text, "\x00", "")
	if !contains(sc.unfollowed, text) {
		sc.unfollowed = append(sc.unfollowed, text)
	}
}

// noteOption notes a shell option that widens what a glob reaches and
// that the glob pins must therefore cover: bash's nocaseglob (`shopt -s
// nocaseglob`, `bash -O nocaseglob`), zsh's NO_CASE_GLOB (any spelling,
// `unsetopt CASE_GLOB`). The others need no note: dotglob (a pinned glob
// matches dot files already), globstar and zsh's `**/` (a `**` component
// is always followed recursively), extglob (always read as a pattern),
// nullglob and failglob (a glob in command position is taken for any
// program), noglob and GLOBIGNORE (they only narrow).
func (sc *scanner) noteOption(t string) {
	if sc.nocase || len(t) < 8 || !strings.ContainsAny(t, "gG") {
		return
	}
	n := strings.ToLower(strings.ReplaceAll(t, "_", ""))
	if strings.Contains(n, "nocaseglob") || n == "caseglob" {
		sc.nocase = true
	}
}
