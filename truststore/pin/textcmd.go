package pin

import (
	"path/filepath"
	"strings"
)

// textCommands are shell builtins and well-known commands whose
// operands are text, not programs or scripts (echo 'Reminder: …'):
// an operand of theirs is pinned when it names an existing file, or
// as absent only when it has a path separator (hasPathSep). trap and
// alias are not among them: their operand is a command line that runs.
var textCommands = map[string]bool{"echo": true, "printf": true, "true": true, "false": true, ":": true,
	"exit": true, "return": true, "break": true, "continue": true, "test": true, "[": true, "[[": true,
	"export": true, "readonly": true, "local": true, "declare": true, "typeset": true, "set": true,
	"unset": true, "shift": true, "read": true, "wait": true, "sleep": true, "kill": true,
	"unalias": true, "umask": true, "logger": true, "notify-send": true, "say": true,
	"tput": true, "date": true, "basename": true, "dirname": true}

// hasPathSep reports whether w has a path separator ("/", or the OS's own,
// "\\" on Windows), so that it reads as a path, not as text.
func hasPathSep(w string) bool {
	return strings.ContainsRune(w, '/') || strings.ContainsRune(w, filepath.Separator)
}
