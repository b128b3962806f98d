#!/bin/sh
# Fields hookside (and Claude Code) do not know are ignored.
cat >/dev/null
cat <<'JSON'
{"continue": true, "suppressOutput": true, "futureField": {"x": 1}, "hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "lint: 0 problems", "futureNested": [1, 2]}}
JSON
