// Package pin is script pinning, hookside's addition beyond the spec. The spec's digest
// covers the declaration only (§"按什么摘要信任"; NOTICE: trust "不等于对……其他
// 项目脚本的统一审核"), so `node ./scripts/guard.mjs` stays trusted when
// guard.mjs is rewritten. A record therefore pins the workspace files the
// declaration names; a changed pin demotes the record (truststore.Evaluate, step 6).
//
// What is pinned (a heuristic over the command line, documented in
// docs/protocol.md §4 "Script pins"):
//
//   - Words come from the process hook's command and args (literal), or from
//     the command hook's string and its `shell` string, split like a POSIX
//     shell (quotes, backslashes, comments, operators; splitShell), both as
//     bash and as dash (POSIX sh, which `sh -c` is on Debian and Ubuntu)
//     read it, and the words of both readings count (dash.go: dash reads
//     $'…' as "$" and a string, ((…)) as subshells, &> as & >, a single
//     quote in a double-quoted ${x-…} as a character (dashquote.go: the
//     raw path-like tokens of such a line are pinned too), and its
//     echo decodes escapes; a command hook's line either reading rejects is
//     listed whole in Pins.Unfollowed, naming the shell). For bash, $'…' is
//     decoded (decodeANSIC; an escape bash decodes by locale or a NUL
//     leaves the word unfollowed), $"…" read as "…". Every
//     statement of the syntax tree is flattened, wherever it sits: $(…)
//     and <(…) in arithmetic ((( )), let, for ((…)), $((…)), array
//     indices), test clauses, case patterns, parameter-expansion operands,
//     assignments and declarations, redirections (flattener.missed). Code
//     given as a string is split again as a command line (scanner.code, up
//     to maxScanDepth levels): a shell's `-c` script (also after a shell
//     named anywhere in a command: `find -exec sh -c`, `sudo -u root sh
//     -c`), eval's and watch's operands joined by spaces, trap's action, an
//     alias value, `su`/`runuser`/`flock`/`script -c`, `env -S`; a
//     here-string, the operands of echo/printf inside a substitution or
//     piped into a shell, and the $(…) written inside a quoted literal
//     (evaluated later by arithmetic, ${x@P}, eval). A program name that
//     is a variable or a glob is taken for a shell and for eval. A code
//     string built from expansions is listed in Pins.Unfollowed, and every
//     assignment value of the line is then split as code too (finish).
//     Text split again is bounded (maxReparse): beyond it, blank-separated
//     words.
//   - Everything is resolved at a Site (site.go): the hook's directory, the
//     project directory and the PATH. The same declaration pins other files
//     at another Site, and a grant holds only where the pins resolved now
//     equal it exactly (Matches).
//   - ${ZCODE_PROJECT_DIR} / ${CLAUDE_PROJECT_DIR} (braced or not) stand for
//     Site.ProjectDir (and, when it differs, the workspace root);
//     ${ZCODE_PLUGIN_ROOT} / ${CLAUDE_PLUGIN_ROOT} for the declaring plugin's
//     directory; $PWD, $(pwd) and ~+ for the session directory; the default forms
//     ${V:-x}, ${V-x}, ${V:=x}, ${V=x} for V and for x (follow.go). Brace
//     alternatives are expanded (bash/zsh) besides the literal word (POSIX
//     sh). Words with any other expansion ($VAR, $(…), `…`, ~) are not
//     followed whole: the directory before it is pinned and the word is
//     listed in Pins.Unfollowed. A relative word is resolved against the session directory,
//     the workspace root, and every directory a preceding `cd DIR` / `pushd
//     DIR` in the same command line names (added, never replacing: a failed
//     or subshell cd cannot hide a file).
//   - Only words lexically inside the workspace root count; a ".." after a
//     symlink is also resolved as the kernel does (the link's target's
//     parent: physical), and a remembered resolution is reused only while
//     each path before a ".." is unchanged (noteLink). A word naming the
//     root itself (`.`, `"$PWD"`, `hooks/..`) cannot be pinned as a tree:
//     it is listed in Pins.Unfollowed as "WORD (the workspace root: not
//     pinned as a tree)". Words with a URL scheme (https://…) are not
//     paths. Output redirection targets and here-document words are
//     skipped; input redirections (`sh < x.sh`) count. `--opt=PATH`
//     counts for its PATH, in an assignment value too, whose
//     blank-separated fields are each taken as a word or an option
//     (`NODE_OPTIONS='--require ./r.js'`, BASH_ENV, PYTHONSTARTUP).
//   - A directory operand of python or node pins the entry files it runs
//     (entries): DIR/__main__.py and the globs DIR/__main__.* and
//     DIR/__pycache__/__main__.*; DIR/package.json, DIR/index.* and the
//     literal "main" package.json names (with main.* and main/index.*
//     while main names nothing).
//   - Package runners (npm.go): `npx NAME`, `pnpm dlx`, `yarn dlx`, `bunx`,
//     `npm exec` pin node_modules/.bin/NAME in the session directory and
//     each parent up to the root (absent when missing); `npm run X`, `npm
//     test`, `yarn X`, `pnpm run X`, `bun run X` pin package.json there
//     and scan its scripts X, preX and postX as command lines run in that
//     directory with those node_modules/.bin on the PATH (the script and
//     subcommand names are not file names); `npm install` and kin read the
//     install scripts so and list the line as unpinned (the dependencies'
//     scripts run too). The runner's project configuration there is pinned
//     too, absent when missing (runnerConfigs: .npmrc, .yarnrc, .yarnrc.yml,
//     bunfig.toml, pnpm-workspace.yaml, .pnpmfile.cjs).
//   - make/gmake (tools.go) pin GNUmakefile, makefile and Makefile in each
//     make directory (the bases and every -C DIR) and the -f FILE operand;
//     a target is pinned there too, absent when missing (a file of that
//     name keeps a target that is not .PHONY from running its recipe);
//     option values are not file names; include lines are not followed (a
//     makefile holding one is listed in Pins.Unfollowed).
//   - Data readers (dataReaders: linters, formatters, grep, rg, git) read
//     their operands and do not run them: operands and subcommand words are
//     not pinned, only a long option's =VALUE and git's -c KEY=VALUE value;
//     a git subcommand outside gitDataSubs (bisect run, rebase --exec,
//     submodule foreach) has its operands pinned and scanned as code.
//   - Code a shell reads at run time from a pipe, a process substitution
//     or its standard input (`curl … | sh`, `bash <(curl …)`, `. /dev/stdin
//     < f`; pipe.go): a literal echo/printf is scanned already, a `cat` of
//     literal paths sources those files, anything else is listed in
//     Pins.Unfollowed as "code read from a pipe: LINE".
//   - A word naming an existing regular file is pinned by SHA-256. A word
//     whose symlinks lead outside the root is pinned by the content it leads
//     to plus the resolved target (ScriptLinks): an edit or a retarget is a
//     change.
//   - Every word after the program name counts, through wrappers (env,
//     timeout, nice, xargs, npx, uv run …; scan): operands, options'
//     separate and attached values (-W x, -Ix, --opt=x), assignment
//     values; `python -m mod` pins mod and mod.py. A word naming nothing is
//     pinned as absent (AbsentPin); its appearance is a change — except an
//     operand of a text command (echo, printf, test, …: textCommands),
//     pinned only when it names an existing file or, as absent, when it
//     has a path separator, so `echo 'Reminder: …'` pins nothing. The
//     program name itself without a "/" (and a command hook's implicit sh)
//     is a PATH lookup: pinned in every Site.Path entry inside the root,
//     absent when nothing is there, and elsewhere only if it exists.
//     Anything else that exists (a FIFO, a device) is pinned as absent, so
//     it never passes.
//   - A word naming a directory pins its tree (Pins.Dirs, treeSum): every
//     entry's name and type and every file's hash, bounded by MaxDirFiles
//     and MaxDirBytes; a larger tree is ErrUnpinnable.
//   - A word with an unquoted glob (*, ?, [, an extglob group) pins every
//     current match and the sorted list of matches (ScriptGlobs): a new,
//     removed or renamed match is a change; the word as written is a
//     candidate too (the shell runs it when nothing matches). The pattern
//     covers what any shell option may reach (globPattern): extglob groups
//     match as *, `[!…]` as `[^…]`, POSIX classes as ?, a `**` component
//     recursively (globstar, zsh; bounded by maxGlobEntries), dot files
//     always, and any letter in either case once nocaseglob (or zsh's
//     NO_CASE_GLOB) appears in the line or a script it sources.
//   - Shell scripts pinned this way (by `#!…sh` line or .sh/.bash/.zsh/.ksh
//     name, or named by `.`/`source`) are parsed like a command line and
//     read for `.`/`source` (also `source <(cat f)`, `. /dev/stdin < f`, and
//     inside eval's and a shell's -c code strings; one built from
//     expansions is listed unpinned); what they source is pinned too (a
//     relative path against the same directories as the command's words;
//     $(dirname "$0"), ${0%/*}, BASH_SOURCE forms and variables assigned
//     from them stand for the script's directory), up to 4 levels. A
//     script larger than maxScanBytes (1 MiB) is not read in part: it is
//     ErrUnpinnable, so the declaration cannot be granted.
//
// Not followed (documented limits): files a script runs, imports or reads
// other than by `.`/`source` (Python finds `import json` in the script's
// own directory first); a shebang's interpreter line and its options; what
// git runs from .git/config (core.fsmonitor, aliases, hooks); the dotfiles
// a shell reads when HOME points into the workspace (`HOME=. bash -l`); paths built from other variables or command
// substitutions, and code strings built at run time (listed as
// unfollowed); code other programs run from their arguments (ssh,
// parallel, an interpreter's -e), a makefile's include lines, and what a
// data reader loads unnamed (eslint.config.js, plugins); zsh-only syntax (glob qualifiers,
// (#i)); PATH entries outside the root; a `shell` that is not a POSIX
// shell (its command text is still split as shell words).
// Over-inclusion only makes trust stricter.
package pin
