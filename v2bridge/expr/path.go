package expr

import (
	"errors"
	"fmt"
	"strings"
)

// PathPattern is the path syntax of hooks-v2-handbook §4.1, verbatim. The
// first segment starts with a letter or underscore; later segments may be all
// digits (array indexes, e.g. workspaces.1.name). ValidPathSyntax implements
// it without the regexp engine; the tests check the two agree.
const PathPattern = `^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)*$`

// Sentinel errors of CheckPath (hooks-v2-handbook §4.1, §5.3).
var (
	// ErrPathSyntax: the path does not match PathPattern.
	ErrPathSyntax = errors.New("invalid path syntax")
	// ErrPathNotAllowed: the path is well formed but outside the whitelist
	// for the event.
	ErrPathNotAllowed = errors.New("path not allowed for event")
)

// commonPaths is part 1 of the whitelist (§4.1): the common envelope fields
// and their regular sub-fields, readable on every event.
var commonPaths = map[string]bool{
	"schemaVersion": true, "eventId": true, "eventName": true, "occurredAt": true,
	"source": true, "primaryWorkspaceId": true,
	"session": true, "session.id": true, "session.title": true,
	"turn": true, "turn.id": true,
	"agent": true, "agent.id": true, "agent.name": true,
	"workspaces": true,
}

// payloadPaths is part 3 of the whitelist (§4.1, shapes from §3.4): the
// payload paths each event allows. turn.started allows none, not even
// "payload" itself.
var payloadPaths = map[string][]string{
	EventTurnStarted:         nil,
	EventPermissionRequested: {"payload", "payload.requestId", "payload.toolName", "payload.action", "payload.riskLevel"},
	EventQuestionRequested:   {"payload", "payload.questionId", "payload.questions"},
	EventResponseCommitted:   {"payload", "payload.response", "payload.response.messageId", "payload.response.finalText"},
	EventTurnCompleted:       {"payload", "payload.message"},
	EventTurnFailed:          {"payload", "payload.message"},
	EventTurnCancelled:       {"payload", "payload.message"},
}

// ValidPathSyntax reports whether path matches PathPattern (§4.1).
func ValidPathSyntax(path string) bool {
	if path == "" {
		return false
	}
	start := true // at the first character of a segment
	first := true // in the first segment
	for i := 0; i < len(path); i++ {
		c := path[i]
		switch {
		case c == '.':
			if start {
				return false
			}
			start, first = true, false
			continue
		case c == '_' || 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z':
		case '0' <= c && c <= '9':
			if start && first {
				return false
			}
		default:
			return false
		}
		start = false
	}
	return !start
}

// PathAllowed reports whether path is on the whitelist for eventName, in the
// handbook's order (§4.1): syntax, the common set, the two event-independent
// index patterns workspaces.<n>.(id|name) and
// payload.questions.<n>.(label|title|description), then the event's payload
// list. The index patterns do not look at the event, so
// payload.questions.0.title is allowed on every event; indexes are not
// bounds-checked.
func PathAllowed(eventName, path string) bool {
	if !ValidPathSyntax(path) {
		return false
	}
	if commonPaths[path] || indexPattern(path) {
		return true
	}
	for _, p := range payloadPaths[eventName] {
		if p == path {
			return true
		}
	}
	return false
}

// CheckPath is PathAllowed with a reason: it wraps ErrPathSyntax or
// ErrPathNotAllowed, or returns nil (§4.1).
func CheckPath(eventName, path string) error {
	if !ValidPathSyntax(path) {
		return fmt.Errorf("%w: %q", ErrPathSyntax, path)
	}
	if !PathAllowed(eventName, path) {
		return fmt.Errorf("%w: %q on %s", ErrPathNotAllowed, path, eventName)
	}
	return nil
}

// indexPattern matches ^workspaces\.\d+\.(id|name)$ and
// ^payload\.questions\.\d+\.(label|title|description)$ (§4.1).
func indexPattern(path string) bool {
	var rest string
	var leaves []string
	switch {
	case strings.HasPrefix(path, "workspaces."):
		rest, leaves = path[len("workspaces."):], []string{"id", "name"}
	case strings.HasPrefix(path, "payload.questions."):
		rest, leaves = path[len("payload.questions."):], []string{"label", "title", "description"}
	default:
		return false
	}
	n, leaf, ok := strings.Cut(rest, ".")
	if !ok || !allDigits(n) {
		return false
	}
	for _, l := range leaves {
		if leaf == l {
			return true
		}
	}
	return false
}

// staticallyAbsent reports whether an allowed path can never hold a
// value on eventName: payload.questions.<n>.* outside question.requested
// (§4.1 "静态允许、运行时取不到").
func staticallyAbsent(eventName, path string) bool {
	return eventName != EventQuestionRequested && strings.HasPrefix(path, "payload.questions.") && indexPattern(path)
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// arrayIndex parses seg as a JavaScript array index: canonical decimal ("0",
// "17", never "01"), as arr["01"] is undefined in JavaScript.
func arrayIndex(seg string, n int) (int, bool) {
	if !allDigits(seg) || len(seg) > 1 && seg[0] == '0' || len(seg) > 9 {
		return 0, false
	}
	i := 0
	for j := 0; j < len(seg); j++ {
		i = i*10 + int(seg[j]-'0')
	}
	return i, i < n
}

// Resolve reads path from the envelope's JSON view (hooks-v2-handbook §4.1):
// objects and arrays are returned as is (session, turn, agent, workspaces,
// payload pass through), digit segments index arrays. found is false when
// the path is malformed or some segment is missing (JavaScript undefined);
// a JSON null that is present gives (nil, true). Resolve does not apply the
// whitelist; see PathAllowed.
func Resolve(env *Envelope, path string) (value any, found bool) { return resolve(env, path, false) }

// ResolveOrdered is Resolve for templates and mappings: objects of the
// payload come as *Object, in JavaScript property order (§5.2: a template
// writes them as JSON.stringify does).
func ResolveOrdered(env *Envelope, path string) (value any, found bool) {
	return resolve(env, path, true)
}

func resolve(env *Envelope, path string, ordered bool) (value any, found bool) {
	if !ValidPathSyntax(path) {
		return nil, false
	}
	head, rest, more := strings.Cut(path, ".")
	var v any
	switch head {
	case "schemaVersion":
		v = float64(env.SchemaVersion)
	case "eventId":
		v = env.EventID
	case "eventName":
		v = env.EventName
	case "occurredAt":
		v = env.OccurredAt
	case "source":
		v = env.Source
	case "primaryWorkspaceId":
		if env.PrimaryWorkspaceID == "" {
			return nil, false
		}
		v = env.PrimaryWorkspaceID
	case "session":
		if !more {
			return env.sessionView(), true
		}
		return leafString(rest, "id", env.Session.ID, "title", env.Session.Title)
	case "turn":
		if !more {
			return map[string]any{"id": env.Turn.ID}, true
		}
		return leafString(rest, "id", env.Turn.ID, "", "")
	case "agent":
		if env.Agent == nil {
			return nil, false
		}
		if !more {
			return map[string]any{"id": env.Agent.ID, "name": env.Agent.Name}, true
		}
		return leafStringKeep(rest, "id", env.Agent.ID, "name", env.Agent.Name)
	case "workspaces":
		if !more {
			return env.workspacesView(), true
		}
		seg, tail, deeper := strings.Cut(rest, ".")
		i, ok := arrayIndex(seg, len(env.Workspaces))
		if !ok {
			return nil, false
		}
		w := env.Workspaces[i]
		if !deeper {
			return map[string]any{"id": w.ID, "name": w.Name}, true
		}
		return leafStringKeep(tail, "id", w.ID, "name", w.Name)
	case "payload":
		if ordered {
			v = env.orderedPayload()
		} else {
			v = env.payloadView()
		}
	default:
		return nil, false
	}
	if !more {
		return v, true
	}
	return walk(v, rest)
}

// leafString resolves one last segment of an object of optional strings:
// empty strings are absent.
func leafString(seg, k1, v1, k2, v2 string) (any, bool) {
	switch seg {
	case k1:
		return v1, v1 != "" || k1 == "id"
	case k2:
		if k2 != "" && v2 != "" {
			return v2, true
		}
	}
	return nil, false
}

// leafStringKeep resolves one last segment of an object of required strings.
func leafStringKeep(seg, k1, v1, k2, v2 string) (any, bool) {
	switch seg {
	case k1:
		return v1, true
	case k2:
		return v2, true
	}
	return nil, false
}

// walk follows dot-separated segments through decoded JSON.
func walk(v any, rest string) (any, bool) {
	for {
		seg, tail, more := strings.Cut(rest, ".")
		switch c := v.(type) {
		case map[string]any:
			next, ok := c[seg]
			if !ok {
				return nil, false
			}
			v = next
		case *Object:
			next, ok := c.Get(seg)
			if !ok {
				return nil, false
			}
			v = next
		case []any:
			i, ok := arrayIndex(seg, len(c))
			if !ok {
				return nil, false
			}
			v = c[i]
		default:
			return nil, false
		}
		if !more {
			return v, true
		}
		rest = tail
	}
}
