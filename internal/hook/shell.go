package hook

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/google/shlex"

	"github.com/hookside/hookside/internal/jsonexact"
)

// ShellKind records how a command hook's `shell` was written, because the
// declaration digest distinguishes the three (PROTOCOL.md §4).
type ShellKind string

const (
	ShellUnset  ShellKind = "unset"  // no `shell` key: sh -c
	ShellTrue   ShellKind = "true"   // `shell: true`: sh -c
	ShellString ShellKind = "string" // `shell: "bash -lc"`: split with shlex, command appended
)

// ErrInvalidShell is wrapped by every Shell.Argv and Shell.Check error: the
// `shell` string cannot be turned into a program and its arguments.
var ErrInvalidShell = errors.New("hook: invalid shell")

// Shell is a command hook's `shell` value as written: unset (no key, JSON
// null; the zero Shell), true, or a shell command string such as "bash" or
// "bash -lc". It is the one representation of the value in hook
// declarations, trust records, wire results and V2 command actions.
type Shell struct {
	kind    ShellKind
	program string
}

// ShellOfTrue is `shell: true`.
var ShellOfTrue = Shell{kind: ShellTrue}

// ShellProgram returns the Shell written as the string program. The string
// is not checked here; see Check.
func ShellProgram(program string) Shell { return Shell{kind: ShellString, program: program} }

// Kind returns how the value was written: ShellUnset (also for the zero
// Shell), ShellTrue or ShellString.
func (s Shell) Kind() ShellKind {
	if s.kind == "" {
		return ShellUnset
	}
	return s.kind
}

// Program is the shell command string (ShellString only, else "").
func (s Shell) Program() string { return s.program }

// IsZero reports whether the value is unset.
func (s Shell) IsZero() bool { return s.Kind() == ShellUnset }

// MarshalJSON encodes null (unset), true, or the shell string.
func (s Shell) MarshalJSON() ([]byte, error) {
	switch s.Kind() {
	case ShellTrue:
		return []byte("true"), nil
	case ShellString:
		return json.Marshal(s.program)
	}
	return []byte("null"), nil
}

// UnmarshalJSON accepts null and false (unset), true, or a string (kept as
// written, even empty: Check says whether it can run). Any other JSON value
// is an error.
func (s *Shell) UnmarshalJSON(b []byte) error {
	var v any
	if err := jsonexact.Unmarshal(b, &v); err != nil {
		return err
	}
	switch v := v.(type) {
	case nil:
		*s = Shell{}
	case bool:
		*s = Shell{}
		if v {
			*s = ShellOfTrue
		}
	case string:
		*s = ShellProgram(v)
	default:
		return fmt.Errorf("%w: shell must be true or a shell command string, got %s", ErrInvalidShell, b)
	}
	return nil
}

// Check reports whether Argv can succeed: always for unset and true; for a
// string, when shlex splits it into at least one word. Errors wrap
// ErrInvalidShell.
func (s Shell) Check() error {
	_, err := s.Argv("")
	return err
}

// Argv returns the argv that runs command, the `command` string of a
// `command` hook, through this shell (ARCHITECTURE.md, library note on
// github.com/google/shlex):
//
//   - unset or true: ["sh", "-c", command];
//   - a string of one word ("bash"): [word, "-c", command];
//   - a string of several words ("bash -lc", "/usr/bin/env zsh -c"): the
//     words as split by shlex, then command as the last argument (the
//     shell string must supply its own -c).
//
// command itself is never split: it goes to the shell whole.
//
// shlex is close to, but not, POSIX sh word splitting. Known gaps, all
// pinned by TestShellArgv:
//   - inside double quotes a backslash escapes every character, so
//     `"a\b"` gives `ab` (POSIX sh keeps `a\b`);
//   - `#` at the start of a word starts a comment: "bash #x" is just
//     ["bash"], and "#bash" is empty (an error);
//   - no expansion of any kind: `~`, `$HOME` and `$'\t'` stay literal
//     (the last loses its quotes: `$\t`);
//   - operators are not special: "a;b" and "a|b" are single words.
//
// Errors wrap ErrInvalidShell: a shell string that is empty or only
// blanks/comments, or one shlex cannot split (unterminated quote, trailing
// backslash).
func (s Shell) Argv(command string) ([]string, error) {
	switch s.Kind() {
	case ShellUnset, ShellTrue:
		return []string{"sh", "-c", command}, nil
	case ShellString:
	default:
		return nil, fmt.Errorf("%w: unknown shell kind %q", ErrInvalidShell, s.kind)
	}
	words, err := shlex.Split(s.program)
	if err != nil {
		return nil, fmt.Errorf("%w: split %q: %v", ErrInvalidShell, s.program, err)
	}
	switch len(words) {
	case 0:
		return nil, fmt.Errorf("%w: %q names no program", ErrInvalidShell, s.program)
	case 1:
		return []string{words[0], "-c", command}, nil
	}
	return append(words, command), nil
}
