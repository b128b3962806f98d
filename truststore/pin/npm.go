package pin

import (
	"path/filepath"
	"slices"
	"strings"
)

// JavaScript package runners: what `npx NAME`, `npm run NAME`, `yarn
// NAME` … run comes from the workspace's node_modules/.bin and
// package.json, not from the PATH.
var (
	// binRunners run a package binary, looked up in node_modules/.bin
	// first (`npx --no-install tsx`).
	binRunners = map[string]bool{"npx": true, "bunx": true, "pnpx": true}
	// binSubs are the "program subcommand" pairs that do the same.
	binSubs = map[string]bool{"npm exec": true, "npm x": true, "pnpm exec": true, "pnpm dlx": true,
		"yarn exec": true, "yarn dlx": true, "bun x": true}
	// runScripts are the subcommands that run a package.json script
	// named by the next operand; scriptSubs run the script of their own
	// name; installSubs run the install lifecycle scripts.
	runScripts  = map[string]bool{"run": true, "run-script": true, "rum": true, "urn": true}
	scriptSubs  = map[string]bool{"test": true, "t": true, "tst": true, "start": true, "stop": true, "restart": true}
	installSubs = map[string]bool{"install": true, "i": true, "ci": true, "add": true, "rebuild": true, "install-test": true, "it": true}
	// runnerBuiltins are yarn and pnpm commands; any other first operand
	// of theirs runs a script of that name, or a package binary.
	runnerBuiltins = map[string]bool{"remove": true, "rm": true, "upgrade": true, "up": true, "update": true, "init": true,
		"info": true, "why": true, "cache": true, "config": true, "global": true, "link": true, "unlink": true, "pack": true,
		"publish": true, "login": true, "logout": true, "version": true, "versions": true, "workspace": true,
		"workspaces": true, "set": true, "node": true, "bin": true, "import": true, "licenses": true, "outdated": true,
		"list": true, "ls": true, "audit": true, "create": true, "help": true, "dedupe": true, "store": true, "root": true,
		"env": true, "setup": true, "patch": true, "prune": true, "fetch": true, "plugin": true, "constraints": true,
		"explain": true, "npm": true, "search": true, "tag": true, "unplug": true, "dlx": true, "exec": true}
	// installScripts are the lifecycle scripts an install runs.
	installScripts = []string{"preinstall", "install", "postinstall", "prepublish", "preprepare", "prepare", "postprepare"}
	// runnerDirOpts take the package directory as their value.
	runnerDirOpts = map[string]bool{"--prefix": true, "-C": true, "--dir": true, "--cwd": true}
)

// pkgRun is where a package runner (npm, yarn, pnpm, bun) stands in its
// command line.
type pkgRun struct {
	state int      // 0 before the subcommand; 1 awaiting a script name; 2 done
	dirs  []string // the package directories (bases, plus --prefix/-C/--cwd values)
	dirOp bool     // the next word is a directory option's value
}

// pkgWord handles operand w of package runner name (npm, yarn, pnpm,
// bun): the subcommand and a script name are consumed (they name no
// file), and what they run is pinned (runScript). It reports whether w
// was consumed.
func (sc *scanner) pkgWord(name string, w shellWord, st *pkgRun, depth int) bool {
	if workspaceOpt(name, w.text) {
		// npm run x --workspaces, pnpm -r x: the scripts of every
		// workspace package run, and their package.json files are not
		// read here.
		sc.unfollow(name + " " + w.text + " (runs the scripts of the workspace packages: they are not pinned)")
	}
	if st.state == 2 || w.dynamic {
		return false
	}
	if strings.HasPrefix(w.text, "-") {
		if k := strings.IndexByte(w.text, '='); k > 0 && runnerDirOpts[w.text[:k]] {
			st.dirs = sc.cd(w.from(k+1), st.dirs, depth)
			sc.runnerConfig(name, st.dirs, depth)
		}
		st.dirOp = runnerDirOpts[w.text]
		return false
	}
	if st.dirOp {
		st.dirOp = false
		st.dirs = sc.cd(w, st.dirs, depth)
		sc.runnerConfig(name, st.dirs, depth)
		return false
	}
	if st.state == 1 {
		st.state = 2
		sc.runScript([]string{w.text}, st.dirs, depth)
		return true
	}
	st.state = 2
	switch {
	case runScripts[w.text]:
		st.state = 1
	case scriptSubs[w.text]:
		sc.runScript([]string{w.text}, st.dirs, depth)
	case installSubs[w.text]:
		sc.runScript(installScripts, st.dirs, depth)
		sc.unfollow(name + " " + w.text + " (runs the install scripts of the dependencies)")
	case name == "npm" || name == "bun" || runnerBuiltins[w.text]:
		return false
	default: // yarn NAME, pnpm NAME: a script, else a package binary
		sc.runScript([]string{w.text}, st.dirs, depth)
		sc.localBin(w.text, st.dirs, depth)
	}
	return true
}

// workspaceOpt reports whether word w of package runner name makes it run
// a script in every workspace package (npm --workspaces/-ws/--workspace,
// pnpm -r/--recursive/--filter, yarn workspaces, bun --filter).
func workspaceOpt(name, w string) bool {
	switch {
	case w == "--workspaces" || w == "-ws" || w == "--workspace" || strings.HasPrefix(w, "--workspace="):
		return name == "npm"
	case w == "-r" || w == "--recursive" || w == "--filter" || strings.HasPrefix(w, "--filter="):
		return name == "pnpm" || name == "bun" && strings.HasPrefix(w, "--filter")
	case w == "workspaces":
		return name == "yarn"
	}
	return false
}

// pkgDirs returns each directory of dirs and its ancestors up to the root
// that lie inside it: where a package runner looks for package.json and
// node_modules/.bin.
func (sc *scanner) pkgDirs(dirs []string) []string {
	var out []string
	for _, d := range dirs {
		for {
			if _, ok := sc.rel(d); !ok && d != sc.root {
				break
			}
			out = appendNew(out, d)
			if d == sc.root {
				break
			}
			d = filepath.Dir(d)
		}
	}
	return out
}

// localBin pins node_modules/.bin/NAME (absent when missing) in every
// package directory (pkgDirs): a package runner runs it before anything
// on the PATH; and each directory's package.json (absent when missing)
// with the file its "bin" names for NAME: npx and `npm exec` run the
// project's own binary of that name first.
func (sc *scanner) localBin(name string, dirs []string, depth int) {
	if name == "" || strings.ContainsAny(name, "/$`\x00") || name == "." || name == ".." {
		return
	}
	for _, d := range sc.pkgDirs(dirs) {
		sc.word(shellWord{text: filepath.Join(d, "node_modules", ".bin", name)}, dirs, true, false, depth)
		p := filepath.Join(d, "package.json")
		sc.word(shellWord{text: p}, dirs, true, false, depth)
		if e := sc.manifest(p).m.binEntry(name); e != "" {
			sc.word(shellWord{text: filepath.Join(d, e)}, dirs, true, false, depth)
		}
	}
}

// runScript pins package.json in every package directory (absent when
// missing) and scans the scripts named (with their pre and post scripts)
// of each as a command line run in that directory, with every
// node_modules/.bin up to the root on the PATH: the script text is
// pinned with package.json, and what it runs like any command line's.
func (sc *scanner) runScript(names []string, dirs []string, depth int) {
	pds := sc.pkgDirs(dirs)
	for _, d := range pds {
		p := filepath.Join(d, "package.json")
		sc.word(shellWord{text: p}, dirs, true, false, depth)
		r := sc.manifest(p)
		if !r.file {
			continue
		}
		if !r.ok {
			sc.unfollow(p + " (package.json not readable: its scripts are not followed)")
			continue
		}
		saved := sc.path
		var bins []string
		for _, a := range sc.pkgDirs([]string{d}) {
			bins = append(bins, filepath.Join(a, "node_modules", ".bin"))
		}
		sc.path = append(bins, slices.Clip(saved)...)
		for _, n := range names {
			for _, s := range []string{"pre" + n, n, "post" + n} {
				if code, ok := r.m.Scripts[s].(string); ok && code != "" {
					sc.code(shellWord{text: code}, []string{d}, depth)
				}
			}
			if code, ok := r.m.Scripts["start"].(string); n == "start" && (!ok || code == "") {
				// npm start without a start script runs `node server.js`.
				sc.code(shellWord{text: "node server.js"}, []string{d}, depth)
			}
		}
		sc.path = saved
	}
}
