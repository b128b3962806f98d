package hook

import (
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"unicode/utf16"
)

// How `command` hooks run on Windows. The rules are pure functions over
// strings, so the Linux suite tests them; the Windows build calls them
// with the real environment, file system and PATH.

// EnvGitBash names the environment variable that sets Git Bash's bash.exe
// for `command` hooks on Windows (it wins over every other location).
const EnvGitBash = "HOOKSIDE_GIT_BASH"

// Errors of the Windows shell policy.
var (
	// ErrNoGitBash: no bash.exe of Git for Windows was found for a
	// `command` hook with no `shell` (or `shell: true`).
	ErrNoGitBash = errors.New("hook: Git Bash not found: install Git for Windows (https://git-scm.com/download/win) or set " + EnvGitBash + " to its bin\\bash.exe, or give the hook shell \"powershell\", \"pwsh\" or \"cmd\"")
	// ErrCmdCommand: a `command` hook with shell "cmd" whose command
	// cmd.exe cannot be given as one command line.
	ErrCmdCommand = errors.New("hook: command cannot run through cmd.exe")
	// ErrBatchArgument: a `process` hook whose executable is a .cmd or
	// .bat file (run by cmd.exe) got an expanded argument with a cmd.exe
	// metacharacter, which could inject commands.
	ErrBatchArgument = errors.New("hook: argument not allowed for a .cmd/.bat executable")
)

// GitBashLookup is what FindGitBash reads: the environment, whether a
// path names an existing regular file, git.exe's path as found on PATH
// ("" when absent), and the directories Git Bash must never come from
// (the workspace and the working directory).
type GitBashLookup struct {
	Getenv  func(string) string
	IsFile  func(string) bool
	GitPath string
	Refuse  []string
}

// FindGitBash returns Git Bash's bash.exe: $HOOKSIDE_GIT_BASH when set
// (it must exist), else the first that exists of %ProgramFiles%,
// %ProgramW6432%, %ProgramFiles(x86)% and %LOCALAPPDATA%\Programs each with
// Git\bin\bash.exe, else bin\bash.exe one and two levels above the
// directory of git.exe (Git\cmd\git.exe, Git\mingw64\bin\git.exe). A
// candidate that is not an absolute path, or lies inside a Refuse
// directory, is skipped. Errors wrap ErrNoGitBash.
func FindGitBash(l GitBashLookup) (string, error) {
	if p := l.Getenv(EnvGitBash); p != "" {
		if !winAbs(p) || l.refused(p) || !l.IsFile(p) {
			return "", fmt.Errorf("%w (%s=%q is not an existing bash.exe outside the workspace)", ErrNoGitBash, EnvGitBash, p)
		}
		return p, nil
	}
	var cands []string
	for _, k := range []string{"ProgramFiles", "ProgramW6432", "ProgramFiles(x86)"} {
		if d := l.Getenv(k); d != "" {
			cands = append(cands, winJoin(d, "Git", "bin", "bash.exe"))
		}
	}
	if d := l.Getenv("LOCALAPPDATA"); d != "" {
		cands = append(cands, winJoin(d, "Programs", "Git", "bin", "bash.exe"))
	}
	if l.GitPath != "" {
		dir := winDir(l.GitPath)
		cands = append(cands, winJoin(winDir(dir), "bin", "bash.exe"), winJoin(winDir(winDir(dir)), "bin", "bash.exe"))
	}
	for _, c := range cands {
		if winAbs(c) && !l.refused(c) && l.IsFile(c) {
			return c, nil
		}
	}
	return "", ErrNoGitBash
}

func (l GitBashLookup) refused(p string) bool {
	for _, d := range l.Refuse {
		if d != "" && winWithin(p, d) {
			return true
		}
	}
	return false
}

// WindowsCommand is how one `command` hook starts on Windows: Argv, and
// for cmd.exe the raw command line to pass as SysProcAttr.CmdLine
// (CmdLine is "" otherwise: Argv is quoted by Go's usual rules).
type WindowsCommand struct {
	Argv    []string
	CmdLine string
}

// WindowsArgv returns how command runs through this shell on Windows:
//
//   - unset or true: Git Bash, [bash, "-c", command] (bash from
//     FindGitBash);
//   - "powershell" / "pwsh" (with or without .exe): [powershell.exe |
//     pwsh.exe, "-NoProfile", "-NonInteractive", "-EncodedCommand",
//     base64(UTF-16LE command)]: no quoting rule of PowerShell's command
//     line can alter an encoded command;
//   - "cmd" (or "cmd.exe"): Argv [comspec, "/d", "/s", "/c", command]
//     (what runs, for display) and CmdLine, the command line itself
//     (CmdLine, below);
//   - any other string: as Argv.
//
// comspec is %ComSpec% ("" = cmd.exe). Errors wrap ErrInvalidShell, or
// ErrCmdCommand for a command cmd.exe cannot take.
func (s Shell) WindowsArgv(command, bash, comspec string) (WindowsCommand, error) {
	switch s.Kind() {
	case ShellUnset, ShellTrue:
		return WindowsCommand{Argv: []string{bash, "-c", command}}, nil
	}
	switch strings.ToLower(strings.TrimSuffix(strings.TrimSpace(s.program), ".exe")) {
	case "powershell", "pwsh":
		exe := strings.TrimSuffix(strings.TrimSpace(s.program), ".exe") + ".exe"
		return WindowsCommand{Argv: []string{exe, "-NoProfile", "-NonInteractive", "-EncodedCommand", EncodePowerShell(command)}}, nil
	case "cmd":
		if comspec == "" {
			comspec = "cmd.exe"
		}
		line, err := CmdLine(comspec, command)
		if err != nil {
			return WindowsCommand{}, err
		}
		return WindowsCommand{Argv: []string{comspec, "/d", "/s", "/c", command}, CmdLine: line}, nil
	}
	argv, err := s.Argv(command)
	return WindowsCommand{Argv: argv}, err
}

// UsesBash reports whether the shell runs the command through a POSIX
// shell on Windows (unset, true, or a sh/bash program), whose ${VAR}
// paths should then use forward slashes (BashPath).
func (s Shell) UsesBash() bool {
	if s.Kind() != ShellString {
		return true
	}
	f := strings.Fields(strings.Trim(s.program, `"' `))
	if len(f) == 0 {
		return false
	}
	name := strings.ToLower(strings.TrimSuffix(f[0][strings.LastIndexAny(f[0], `/\`)+1:], ".exe"))
	return name == "sh" || name == "bash"
}

// BashPath returns a Windows path for bash: backslashes become forward
// slashes (C:\Users\me → C:/Users/me), which Git Bash reads as the same
// path while a backslash would be an escape.
func BashPath(p string) string { return strings.ReplaceAll(p, `\`, "/") }

// EncodePowerShell is command for PowerShell's -EncodedCommand: base64 of
// its UTF-16LE encoding.
func EncodePowerShell(command string) string {
	u := utf16.Encode([]rune(command))
	b := make([]byte, 2*len(u))
	for i, c := range u {
		b[2*i], b[2*i+1] = byte(c), byte(c>>8)
	}
	return base64.StdEncoding.EncodeToString(b)
}

// CmdMaxChars is the longest command cmd.exe runs, in UTF-16 code units
// (its documented command-line limit, 8191 characters).
const CmdMaxChars = 8191

// CmdLine is the raw command line (for CreateProcess, never re-quoted)
// that runs command through cmd.exe at comspec:
//
//	"<comspec>" /d /s /c "<command>"
//
// /d skips the AutoRun commands of the registry; /c runs the rest of the
// line and exits with its status; /s makes cmd.exe strip exactly the first
// and the last quote of that rest, whatever is between them, so command
// reaches cmd.exe as written: its quotes, &, |, <, >, ^ and %VAR% mean
// what they mean at a cmd prompt. (Go's usual quoting for
// CommandLineToArgvW would escape inner quotes with backslashes, which
// cmd.exe keeps literally.) Errors wrap ErrCmdCommand: a NUL (no Windows
// command line holds one), a line break (cmd.exe runs the first line
// only: join commands with &), more than CmdMaxChars; or ErrInvalidShell
// for a comspec with a quote or NUL.
func CmdLine(comspec, command string) (string, error) {
	if strings.ContainsAny(comspec, "\"\x00") || comspec == "" {
		return "", fmt.Errorf("%w: cmd.exe path %q", ErrInvalidShell, comspec)
	}
	switch {
	case strings.ContainsRune(command, 0):
		return "", fmt.Errorf("%w: it holds a NUL character", ErrCmdCommand)
	case strings.ContainsAny(command, "\r\n"):
		return "", fmt.Errorf("%w: it holds a line break, and cmd.exe runs one line only (join the commands with &, or run a .cmd script)", ErrCmdCommand)
	}
	if n := len(utf16.Encode([]rune(command))); n > CmdMaxChars {
		return "", fmt.Errorf("%w: %d characters, cmd.exe takes at most %d", ErrCmdCommand, n, CmdMaxChars)
	}
	return `"` + comspec + `" /d /s /c "` + command + `"`, nil
}

// batchMeta are the characters cmd.exe gives meaning to on a batch file's
// command line, plus line breaks: an argument with one of them could run
// other commands (the "BatBadBut" class, golang/go#27199).
const batchMeta = "&|<>^%!\"()\r\n"

// IsBatch reports whether exe (a resolved path) is a .cmd or .bat file,
// which Windows runs through cmd.exe.
func IsBatch(exe string) bool {
	e := strings.ToLower(exe)
	return strings.HasSuffix(e, ".cmd") || strings.HasSuffix(e, ".bat")
}

// CheckBatchArgs refuses, for a `process` hook whose executable exe is a
// .cmd/.bat file, any argument holding a cmd.exe metacharacter (batchMeta).
// The error wraps ErrBatchArgument and names the argument and character.
func CheckBatchArgs(exe string, args []string) error {
	if !IsBatch(exe) {
		return nil
	}
	for i, a := range args {
		if j := strings.IndexAny(a, batchMeta); j >= 0 {
			return fmt.Errorf("%w: %s runs through cmd.exe, and argument %d (%q) holds %q; quote-free arguments only, or use a .exe or a command hook", ErrBatchArgument, exe, i+1, a, a[j])
		}
	}
	return nil
}

// winAbs reports whether p is an absolute Windows path (C:\x, C:/x, \\server\share).
func winAbs(p string) bool {
	return len(p) >= 3 && isDriveLetter(p[0]) && p[1] == ':' && (p[2] == '\\' || p[2] == '/') ||
		strings.HasPrefix(p, `\\`) || strings.HasPrefix(p, "//")
}

func isDriveLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// winJoin joins Windows path elements with backslashes.
func winJoin(dir string, elem ...string) string {
	return strings.TrimRight(dir, `\/`) + `\` + strings.Join(elem, `\`)
}

// winDir is the parent of a Windows path (either separator).
func winDir(p string) string {
	p = strings.TrimRight(p, `\/`)
	if i := strings.LastIndexAny(p, `\/`); i >= 0 {
		return p[:i]
	}
	return p
}

// winWithin reports whether p is dir or inside it (case-insensitive,
// either separator, "." and ".." elements resolved).
func winWithin(p, dir string) bool {
	np, nd := winClean(p), winClean(dir)
	return np == nd || strings.HasPrefix(np, nd+"/")
}

func winClean(p string) string {
	parts := strings.FieldsFunc(strings.ToLower(strings.ReplaceAll(p, `\`, "/")), func(r rune) bool { return r == '/' })
	out := parts[:0]
	for _, e := range parts {
		switch e {
		case ".":
		case "..":
			if len(out) > 1 {
				out = out[:len(out)-1]
			}
		default:
			out = append(out, e)
		}
	}
	return strings.Join(out, "/")
}
