package runner

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/hookside/hookside/internal/hook"
)

func TestCheckInputTypes(t *testing.T) {
	for _, c := range []struct {
		event, input, field, reason string
	}{
		{hook.PreToolUse, `{"toolName":"Bash","toolInput":"notobj"}`, "toolInput", "must be an object, not a string"},
		{hook.PermissionRequest, `{"toolName":"Bash","toolInput":[1]}`, "toolInput", "must be an object, not an array"},
		{hook.PostToolUse, `{"toolName":"Bash","toolInput":3}`, "toolInput", "must be an object, not a number"},
		{hook.PostToolUseFailure, `{"toolName":"Bash","toolInput":{},"toolCallId":7}`, "toolCallId", "must be a string, not a number"},
		{hook.PreToolUse, `{"toolName":"Bash","riskLevel":{}}`, "riskLevel", "must be a string, not an object"},
		{hook.PostToolUseFailure, `{"toolName":"Bash","error":{"m":1}}`, "error", "must be a string, not an object"},
		{hook.PostToolUseFailure, `{"toolName":"Bash","isInterrupt":"yes"}`, "isInterrupt", "must be true or false, not a string"},
		{hook.SessionStart, `{"source":1}`, "source", "must be a string, not a number"},
		{hook.UserPromptSubmit, `{"prompt":["a"]}`, "prompt", "must be a string, not an array"},
		{hook.UserPromptSubmit, `{"prompt":"p","attachments":{}}`, "attachments", "must be an array, not an object"},
		{hook.UserPromptSubmit, `{"prompt":"p","attachments":[{"name":"a"},"b"]}`, "attachments[1]", "must be an object, not a string"},
		{hook.UserPromptSubmit, `{"prompt":"p","attachments":[{"name":"a","size":1.5}]}`, "attachments[0].size", "must be an integer"},
		{hook.UserPromptSubmit, `{"prompt":"p","attachments":[{"name":"a","size":-1}]}`, "attachments[0].size", "must be an integer from 0 to 9223372036854775807"},
		{hook.UserPromptSubmit, `{"prompt":"p","attachments":[{"name":true}]}`, "attachments[0].name", "must be a string, not a boolean"},
		{hook.Stop, `{"responseText":5}`, "responseText", "must be a string, not a number"},
		{hook.Stop, `{"responseText":"r","toolCallCount":"3"}`, "toolCallCount", "must be an integer, not a string"},
		{hook.Stop, `{"responseText":"r","toolCallCount":2.5}`, "toolCallCount", "must be an integer"},
		{hook.Stop, `{"responseText":"r","toolCallCount":1e2}`, "toolCallCount", "must be an integer"},
		{hook.Stop, `{"responseText":"r","toolCallCount":100.0}`, "toolCallCount", "must be an integer"},
		{hook.Stop, `{"responseText":"r","toolCallCount":-1}`, "toolCallCount", "must be an integer from 0 to 9223372036854775807"},
		{hook.Stop, `{"responseText":"r","toolCallCount":12345678901234567890123}`, "toolCallCount", "must be an integer from 0 to 9223372036854775807"},
		{hook.Stop, `{"responseText":"r","stopHookActive":"true"}`, "stopHookActive", "must be true or false, not a string"},
		// Accepted: null, absent, fields of any type, other events' fields, unknown fields.
		{hook.PreToolUse, `{"toolName":"Bash","toolInput":null,"toolCallId":null,"riskLevel":null}`, "", ""},
		{hook.PostToolUse, `{"toolName":"Bash","toolInput":{"a":1},"toolResponse":"any","custom":1}`, "", ""},
		{hook.PostToolUseFailure, `{"toolName":"Bash","errorDetails":[1],"isInterrupt":false,"error":"e"}`, "", ""},
		{hook.PostToolUse, `{"toolName":"Bash","riskLevel":1,"error":{}}`, "", ""},
		{hook.Stop, `{"responseText":"r","toolCallCount":-0,"stopHookActive":true,"toolInput":"x"}`, "", ""},
		{hook.UserPromptSubmit, `{"prompt":"p","attachments":[{"name":"a","mimeType":null,"size":10,"extra":[]}]}`, "", ""},
		{hook.SessionStart, `{}`, "", ""},
	} {
		in, err := decodeInput(json.RawMessage(c.input))
		if err != nil {
			t.Fatal(err)
		}
		err = checkInputTypes(c.event, &in.f)
		var ie *InputError
		switch {
		case c.field == "" && err != nil:
			t.Errorf("%s %s: %v", c.event, c.input, err)
		case c.field != "" && (!errors.As(err, &ie) || ie.Field != c.field || ie.Reason != c.reason):
			t.Errorf("%s %s: %v; want input.%s %s", c.event, c.input, err, c.field, c.reason)
		}
	}
}
