#!/usr/bin/env python3
"""PermissionRequest auto-approval in the style of public plugins."""
import json
import sys

data = json.load(sys.stdin)
tool = data.get("tool_name", "")
cmd = (data.get("tool_input") or {}).get("command", "")
if tool in ("Read", "Glob", "Grep") or cmd.startswith("npm test"):
    print(json.dumps({
        "hookSpecificOutput": {
            "hookEventName": "PermissionRequest",
            "decision": {"behavior": "allow", "updatedPermissions": data.get("permission_suggestions", [])},
        }
    }))
elif cmd.startswith("curl "):
    print(json.dumps({
        "hookSpecificOutput": {
            "hookEventName": "PermissionRequest",
            "decision": {"behavior": "deny", "message": "network access needs review", "interrupt": False},
        }
    }))
sys.exit(0)
