package rpc

import (
	"encoding/json"
	"strconv"
)

// jsonAppender is a notification's params that encode themselves: the
// per-hook notifications go out for every hook, and encoding/json's
// reflection walk is most of their cost on a cold cache. appendJSON
// appends exactly what json.Marshal would produce (TestNotificationJSON).
type jsonAppender interface {
	appendJSON(b []byte) []byte
}

func (p hookStartedParams) appendJSON(b []byte) []byte {
	b = appendString(append(b, `{"sessionId":`...), p.SessionID)
	b = appendString(append(b, `,"runId":`...), p.RunID)
	b = appendString(append(b, `,"hookId":`...), p.HookID)
	b = appendString(append(b, `,"event":`...), p.Event)
	b = appendString(append(b, `,"source":{"kind":`...), p.Source.Kind)
	b = appendString(append(b, `,"path":`...), p.Source.Path)
	if p.Source.Name != "" {
		b = appendString(append(b, `,"name":`...), p.Source.Name)
	}
	return append(b, "}}"...)
}

func (p hookCompletedParams) appendJSON(b []byte) []byte {
	b = appendString(append(b, `{"sessionId":`...), p.SessionID)
	b = appendString(append(b, `,"runId":`...), p.RunID)
	b = appendString(append(b, `,"hookId":`...), p.HookID)
	b = appendString(append(b, `,"event":`...), p.Event)
	b = appendString(append(b, `,"outcome":`...), string(p.Outcome))
	b = appendIntPtr(append(b, `,"exitCode":`...), p.ExitCode)
	b = strconv.AppendInt(append(b, `,"durationMs":`...), p.DurationMs, 10)
	b = appendString(append(b, `,"stdoutPreview":`...), p.StdoutPreview)
	b = appendString(append(b, `,"stderrPreview":`...), p.StderrPreview)
	if p.Error != "" {
		b = appendString(append(b, `,"error":`...), p.Error)
	}
	if len(p.Warnings) > 0 {
		b = append(b, `,"warnings":[`...)
		for i, w := range p.Warnings {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, w)
		}
		b = append(b, ']')
	}
	return append(b, '}')
}

// appendIntPtr appends *n, or null.
func appendIntPtr(b []byte, n *int) []byte {
	if n == nil {
		return append(b, "null"...)
	}
	return strconv.AppendInt(b, int64(*n), 10)
}

// appendString appends s as encoding/json writes it: printable ASCII
// other than `"`, `\` and the HTML-escaped <, > and & is copied; any
// other string goes through json.Marshal.
func appendString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s) // a string always encodes
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}
