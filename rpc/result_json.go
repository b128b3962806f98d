package rpc

import (
	"encoding/json"
	"strconv"

	"github.com/hookside/hookside/output"
)

// mergedResult is a hooks/run result (output.Merged) that encodes itself:
// it is written for every run, and encoding/json's reflection walk over
// Merged and its runs costs much on a cold cache. appendJSON writes
// exactly what json.Marshal writes for the Merged (TestMergedResultJSON,
// FuzzMergedResultJSON); the rare nested values (stop, trustNotice,
// updatedInput) go through json.Marshal themselves.
type mergedResult struct{ output.Merged }

// resultAppender is a result that encodes itself (writeResult).
type resultAppender interface {
	appendResult(b []byte) ([]byte, error)
}

func (r mergedResult) appendResult(b []byte) ([]byte, error) {
	m := &r.Merged
	b = appendString(append(b, `{"event":`...), m.Event)
	b = appendStringPtr(append(b, `,"decision":`...), m.Decision)
	b = appendStringPtr(append(b, `,"decisionReason":`...), m.DecisionReason)
	b = strconv.AppendBool(append(b, `,"blocked":`...), m.Blocked)
	b = appendStringPtr(append(b, `,"blockReason":`...), m.BlockReason)
	b = append(b, `,"updatedInput":`...)
	var err error
	if b, err = appendMarshal(b, m.UpdatedInput); err != nil {
		return nil, err
	}
	b = appendStrings(append(b, `,"additionalContext":`...), m.AdditionalContext)
	b = appendStringPtr(append(b, `,"modelContext":`...), m.ModelContext)
	b = strconv.AppendBool(append(b, `,"continue":`...), m.Continue)
	b = appendStringPtr(append(b, `,"stopReason":`...), m.StopReason)
	b = appendStrings(append(b, `,"systemMessages":`...), m.SystemMessages)
	if m.Stop != nil {
		if b, err = appendMarshal(append(b, `,"stop":`...), m.Stop); err != nil {
			return nil, err
		}
	}
	b = append(b, `,"runs":`...)
	if m.Runs == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i := range m.Runs {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendRun(b, &m.Runs[i])
		}
		b = append(b, ']')
	}
	if m.Skipped != "" {
		b = appendString(append(b, `,"skipped":`...), m.Skipped)
	}
	if m.TrustNotice != nil {
		if b, err = appendMarshal(append(b, `,"trustNotice":`...), m.TrustNotice); err != nil {
			return nil, err
		}
	}
	return append(b, '}'), nil
}

func appendRun(b []byte, r *output.Run) []byte {
	b = appendString(append(b, `{"runId":`...), r.RunID)
	b = appendString(append(b, `,"hookId":`...), r.HookID)
	b = appendString(append(b, `,"source":`...), r.Source)
	b = appendString(append(b, `,"outcome":`...), string(r.Outcome))
	b = appendIntPtr(append(b, `,"exitCode":`...), r.ExitCode)
	b = strconv.AppendInt(append(b, `,"durationMs":`...), r.DurationMs, 10)
	b = strconv.AppendBool(append(b, `,"stdoutTruncated":`...), r.StdoutTruncated)
	b = strconv.AppendBool(append(b, `,"stderrTruncated":`...), r.StderrTruncated)
	if r.Error != "" {
		b = appendString(append(b, `,"error":`...), r.Error)
	}
	if r.Reason != "" {
		b = appendString(append(b, `,"reason":`...), r.Reason)
	}
	if len(r.Warnings) > 0 {
		b = appendStrings(append(b, `,"warnings":`...), r.Warnings)
	}
	if r.QueuedRunID != "" {
		b = appendString(append(b, `,"queuedRunId":`...), r.QueuedRunID)
	}
	return append(b, '}')
}

// appendStringPtr appends *s, or null.
func appendStringPtr(b []byte, s *string) []byte {
	if s == nil {
		return append(b, "null"...)
	}
	return appendString(b, *s)
}

// appendStrings appends ss as a JSON array (null when nil).
func appendStrings(b []byte, ss []string) []byte {
	if ss == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, s := range ss {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, s)
	}
	return append(b, ']')
}

// appendMarshal appends json.Marshal(v).
func appendMarshal(b []byte, v any) ([]byte, error) {
	q, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return append(b, q...), nil
}
