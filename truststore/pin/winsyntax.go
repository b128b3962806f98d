package pin

import (
	"errors"
	"fmt"
	"path"
	"regexp"
	"strings"
	"sync"

	"github.com/hookside/hookside/internal/hook"
)

// ErrUnreadableSyntax is wrapped by the error PinScriptsIn returns on
// Windows for a declaration whose command line the POSIX-shell scanner
// cannot read: the declaration is then unpinnable, so it cannot be
// granted (fail closed, never pinned from a misread).
var ErrUnreadableSyntax = errors.New("pin: command syntax not readable on Windows")

// shortName matches an 8.3 short-name component (PROGRA~1, HOOKS~1.SH):
// another name for a file the scanner would not recognize.
var shortName = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(^|[/\\])[^/\\~]{1,8}~[0-9]+(\.[^/\\]{0,3})?($|[/\\])`)
})

// windowsSyntax reports why h's command line cannot be read on Windows by
// a scanner that splits it as POSIX shell words (nil when it can):
//
//   - a `shell` naming cmd, powershell or pwsh, or any program that is
//     not a POSIX shell (sh, bash, dash, ksh, zsh; with or without .exe);
//   - for a command hook, a backslash anywhere in the command or shell
//     string (a Windows path separator there reads as a shell escape; a
//     process hook's command and args are literal, never split);
//   - an 8.3 short-name component (PROGRA~1);
//   - an alternate data stream suffix (x.sh:stream): a colon after
//     anything but a leading drive letter, in a word that looks like a
//     path (it has a "." or "/" before the colon).
//
// The error wraps ErrUnreadableSyntax and names the word.
func windowsSyntax(h hook.Hook) error {
	var texts, words []string
	if h.Type == hook.TypeProcess {
		words = append([]string{h.Command}, h.Args...)
	} else {
		texts = append(texts, h.Command)
		if h.Shell.Kind() == hook.ShellString {
			texts = append(texts, h.Shell.Program())
			sw := splitShell(h.Shell.Program())
			if len(sw) > 0 {
				if why := nonPOSIXShell(sw[0].text); why != "" {
					return fmt.Errorf("%w: %s", ErrUnreadableSyntax, why)
				}
			}
		}
		for _, w := range splitShell(h.Command) {
			if w.op == "" {
				words = append(words, w.text)
			}
		}
	}
	for _, t := range texts {
		if strings.Contains(t, `\`) {
			return fmt.Errorf("%w: %q has a backslash (a Windows path separator reads as a shell escape)", ErrUnreadableSyntax, t)
		}
	}
	for _, w := range words {
		if shortName().MatchString(w) {
			return fmt.Errorf("%w: %q has an 8.3 short name", ErrUnreadableSyntax, w)
		}
		rest := w
		if len(rest) >= 2 && rest[1] == ':' && isLetter(rest[0]) {
			rest = rest[2:]
		}
		if i := strings.IndexByte(rest, ':'); i > 0 && strings.ContainsAny(rest[:i], "./") {
			return fmt.Errorf("%w: %q names an alternate data stream", ErrUnreadableSyntax, w)
		}
	}
	return nil
}

// nonPOSIXShell says why program is not a shell whose syntax the scanner
// reads ("" when it is).
func nonPOSIXShell(program string) string {
	name := strings.ToLower(path.Base(strings.ReplaceAll(program, `\`, "/")))
	name = strings.TrimSuffix(name, ".exe")
	switch name {
	case "sh", "bash", "dash", "ksh", "zsh":
		return ""
	case "cmd":
		return "shell cmd: cmd.exe syntax is not read"
	case "powershell", "pwsh":
		return "shell " + name + ": PowerShell syntax is not read"
	}
	return fmt.Sprintf("shell %q is not a POSIX shell", program)
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
