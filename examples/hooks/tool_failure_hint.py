#!/usr/bin/env python3
"""PostToolUseFailure hook: when a tool call failed (not interrupted by the
user), give the model a hint for the next attempt (additional context)."""
import json
import sys

event = json.load(sys.stdin)
if event.get("is_interrupt"):
    sys.exit(0)  # the user stopped it: nothing to add
tool = event.get("tool_name", "the tool")
error = (event.get("error") or "").strip()
hint = f"{tool} failed: {error[:500]}" if error else f"{tool} failed."
if "command not found" in error:
    hint += " Check that the program is installed and on PATH before retrying."
else:
    hint += " Read the error before retrying the same call."
print(json.dumps({"hookSpecificOutput": {"hookEventName": "PostToolUseFailure", "additionalContext": hint}}))
