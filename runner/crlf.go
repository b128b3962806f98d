package runner

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/hookside/hookside/internal/hook"
)

// scriptCRLF is why a hook's script, which exists, does not run as
// written: it has Windows (CRLF) line endings. Either the system starts
// it through its "#!" line (a process hook's executable, or a command
// hook's line that is the script's path), which then names the
// interpreter with a carriage return at its end and the start fails; or
// a POSIX shell is given it (`bash x.sh`), which reads the carriage return
// ending each line as part of the line.
type scriptCRLF struct {
	word    string // the script as written (expanded): "./h/guard.sh"
	path    string // absolute, resolved against the session directory
	interp  string // #! form: the interpreter the #! line names, without its \r
	shell   string // shell form: the shell as written ("bash"); "" for the #! form
	process bool   // #! form: a process hook (started without a shell)
}

func (e *scriptCRLF) Error() string {
	var b strings.Builder
	if e.shell != "" {
		fmt.Fprintf(&b, "%s script %s", e.shell, e.word)
	} else {
		fmt.Fprintf(&b, "script %s", e.word)
	}
	if e.path != e.word {
		fmt.Fprintf(&b, " (resolved against the session directory: %s)", e.path)
	}
	b.WriteString(" has Windows (CRLF) line endings: ")
	switch {
	case e.shell != "":
		fmt.Fprintf(&b, "%s reads the carriage return (\\r) ending each line as part of the line, so its commands fail or misbehave ($'\\r': command not found; `exit 2\\r` is a numeric-argument error that exits 2, which blocks; `>&2\\r` writes a file named 2\\r) and its exit status is not the one the script means", e.shell)
	case e.process:
		fmt.Fprintf(&b, "its #! line ends in a carriage return (\\r), so the system looks for the interpreter %q, and the hook fails on every run without starting", e.interp+"\r")
	default:
		fmt.Fprintf(&b, "its #! line ends in a carriage return (\\r), so the system looks for the interpreter %q, which does not exist, and the shell reports the script as not found (exit 127): the hook fails open on every run, checking nothing", e.interp+"\r")
	}
	b.WriteString("; convert the file to LF line endings")
	return b.String()
}

// explainDetail is the `hooks explain` note of a hook that would run with
// this problem.
func (e *scriptCRLF) explainDetail() string {
	switch {
	case e.shell != "":
		return "runs, then misreads its script: " + e.Error()
	case e.process:
		return "fails without starting: " + e.Error()
	}
	return "runs, then fails: " + e.Error()
}

// scriptCRLFProblem is why the hook h runs a script with CRLF line endings
// (a *scriptCRLF): a process hook whose executable, or a command hook
// whose line is one simple command (commandWords) whose first word, is a
// path (resolved against the session directory) to a script whose "#!"
// line ends in a carriage return (macOS and Linux: Windows starts no
// script through "#!"); or either hook whose line is `SHELL [OPTIONS]
// SCRIPT …` (sh, bash, dash, zsh; scriptOf: under the session directory,
// the workspace or a home), or a script whose "#!" line names one of those
// shells, with CRLF line endings in its first shebangMax bytes. nil
// otherwise. It reads at most shebangMax bytes of one file; asked at
// configuration load and by `hooks explain`, never on a run.
func (s *Session) scriptCRLFProblem(h *hook.Hook) error {
	var words []string
	var home string
	switch h.Type {
	case hook.TypeCommand:
		w, hm, ok := s.commandWords(h)
		if !ok {
			return nil
		}
		words, home = w, hm
	case hook.TypeProcess:
		argv, _, _, err := s.commandLine(h)
		if err != nil || len(argv) == 0 {
			return nil
		}
		words, home = argv, s.hookHome()
	default:
		return nil
	}
	if shebangExec && strings.ContainsAny(words[0], `/\`) {
		p := words[0]
		if !filepath.IsAbs(p) {
			p = filepath.Join(s.opts.Cwd, p)
		}
		head := fileHead(p)
		interp, arg, cr, ok := parseShebang(head)
		switch {
		case ok && cr:
			return &scriptCRLF{word: words[0], path: p, interp: interp, process: h.Type == hook.TypeProcess}
		case ok && bytes.Contains(head, []byte("\r\n")):
			// The #! line is fine, the lines after it are not: a POSIX
			// shell it names reads them with their carriage returns.
			if sh := shebangShell(interp, arg); sh != "" {
				return &scriptCRLF{word: words[0], path: p, shell: sh}
			}
		}
	}
	sc, ok := s.scriptOf(words, home)
	if !ok {
		return nil
	}
	switch sc.name {
	case "sh", "bash", "dash", "zsh":
	default:
		return nil // python, perl, ruby and node read CRLF lines as LF ones
	}
	if bytes.Contains(fileHead(sc.path), []byte("\r\n")) {
		return &scriptCRLF{word: sc.word, path: sc.path, shell: sc.interp}
	}
	return nil
}

// shebangShell is the POSIX shell (sh, bash, dash, zsh) a "#!" line names,
// directly (#!/bin/bash) or through env (#!/usr/bin/env bash), or "".
func shebangShell(interp, arg string) string {
	name := filepath.Base(interp)
	if name == "env" {
		name, _, _ = strings.Cut(strings.TrimSpace(strings.TrimPrefix(arg, "-S")), " ")
		name = filepath.Base(name)
	}
	switch name {
	case "sh", "bash", "dash", "zsh":
		return name
	}
	return ""
}

// commandStartProblem is why the command hook h's shell, run in dir,
// exited 127 although h's line is one simple command (commandWords) whose
// first word is the path of a script that exists: the system could not
// start it through its "#!" line (shebangProblem: CRLF line endings, a
// missing interpreter or one that cannot be run), which the shell reports
// as "not found". nil when that is not why. Asked only after an exit 127.
func (s *Session) commandStartProblem(h *hook.Hook, dir string) error {
	if !shebangExec {
		return nil
	}
	words, _, ok := s.commandWords(h)
	if !ok || !strings.ContainsAny(words[0], `/\`) {
		return nil
	}
	p := words[0]
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	return shebangProblem(p, dir)
}

// exit127Error is the run Error of the hook h that ended with exitCode and
// Error current: current with the cause appended when h is a command hook
// whose shell exited 127 for commandStartProblem, current otherwise.
func (s *Session) exit127Error(h *hook.Hook, dir string, exitCode *int, current string) string {
	if h.Type != hook.TypeCommand || exitCode == nil || *exitCode != 127 {
		return current
	}
	if err := s.commandStartProblem(h, dir); err != nil {
		return current + ": " + err.Error()
	}
	return current
}
