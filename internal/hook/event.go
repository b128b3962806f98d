package hook

// The seven shell-hook events (lifecycle-hooks-and-workspace-trust §"七个事件").
const (
	SessionStart       = "SessionStart"
	UserPromptSubmit   = "UserPromptSubmit"
	PreToolUse         = "PreToolUse"
	PermissionRequest  = "PermissionRequest"
	PostToolUse        = "PostToolUse"
	PostToolUseFailure = "PostToolUseFailure"
	Stop               = "Stop"
)

// Events lists the seven events in the order the spec introduces them.
var Events = []string{SessionStart, UserPromptSubmit, PreToolUse, PermissionRequest, PostToolUse, PostToolUseFailure, Stop}

// EventIndex returns the index of event in Events, or -1 for a name that is
// not one of the seven (case-sensitive).
func EventIndex(event string) int {
	switch event {
	case SessionStart:
		return 0
	case UserPromptSubmit:
		return 1
	case PreToolUse:
		return 2
	case PermissionRequest:
		return 3
	case PostToolUse:
		return 4
	case PostToolUseFailure:
		return 5
	case Stop:
		return 6
	}
	return -1
}

// IsEvent reports whether name is one of the seven events (case-sensitive).
func IsEvent(name string) bool { return EventIndex(name) >= 0 }
