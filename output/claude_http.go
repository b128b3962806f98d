package output

import (
	"strconv"
)

// HTTPResult is what the runner observed for one http handler: the
// response status and body (already capped), or why there is none.
type HTTPResult struct {
	// Status is the HTTP status code (0 when no response arrived).
	Status int
	Body   []byte
	// BodyTruncated reports that the body hit the cap.
	BodyTruncated bool
	// Err is the transport error (connection refused, bad URL, too many
	// redirects); TimedOut reports that the hook's timeout cancelled it.
	Err      string
	TimedOut bool
	// Skipped reports that the request was not sent (SkipReason says why,
	// e.g. the URL is not in allowedHttpHookUrls).
	Skipped    bool
	SkipReason string
}

// ParseClaudeHTTP interprets an http handler's response for event per
// https://code.claude.com/docs/en/hooks#http-response-handling:
//
//   - 2xx with an empty body: success, no output;
//   - 2xx with a JSON object body: the JSON output, read as a command
//     hook's stdout on exit 0 (a body that fails validation is a
//     non-blocking error);
//   - 2xx with any other body: a non-blocking error; the text does not
//     reach Claude;
//   - non-2xx, connection failure: a non-blocking error;
//   - timeout: cancelled, no decision.
//
// A status code alone never blocks. WorktreeCreate keeps its own contract:
// a failed request fails the creation.
func ParseClaudeHTTP(event string, r HTTPResult) ClaudeAnswer {
	var a ClaudeAnswer
	rule := claudeRules[event]
	switch {
	case r.Skipped:
		a.Outcome, a.Error = OutcomeSkipped, r.SkipReason
		return a
	case r.TimedOut:
		a.Outcome, a.Error = OutcomeTimedOut, "timed out"
		a.HookError = "http hook timed out; no decision"
	case r.Err != "":
		a.Outcome, a.Error = OutcomeFailed, validString(r.Err)
		a.HookError = "http hook failed: " + a.Error
	case r.Status < 200 || r.Status > 299:
		a.Outcome, a.Error = OutcomeFailed, "HTTP status "+strconv.Itoa(r.Status)
		a.HookError = "http hook failed: " + a.Error
	default:
		body := trim(r.Body)
		if len(body) == 0 {
			a.Outcome = OutcomeSucceeded
			break
		}
		if _, ok := claudeObject(body); !ok {
			a.Outcome, a.Error = OutcomeFailed, "response body is not a JSON object"
			a.HookError = "http hook failed: " + a.Error
			break
		}
		a = ParseClaude(event, ProcessResult{ExitCode: 0, Stdout: body})
		a.ExitCode = nil
		if a.HookError != "" {
			a.Outcome, a.Error = OutcomeFailed, a.HookError
		}
	}
	if rule.anyNonZeroFails && a.Outcome != OutcomeSucceeded {
		a.Block, a.BlockReason = true, firstNonBlank(a.HookError, a.Error)
	}
	return a
}
