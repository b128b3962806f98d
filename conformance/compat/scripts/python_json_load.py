#!/usr/bin/env python3
# Python style: json.load(sys.stdin), answer with hookSpecificOutput.
import json
import sys

data = json.load(sys.stdin)
path = data.get("tool_input", {}).get("file_path", "")
if path.endswith(".env"):
    print(json.dumps({
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": "%s edits %s" % (data["tool_name"], path),
        }
    }))
sys.exit(0)
