#!/usr/bin/env python3
"""Workspace PreToolUse hook (declared in ../zcode.json): the files under
generated/ are produced by `make generate`; deny edits to them."""
import json
import sys

event = json.load(sys.stdin)
path = (event.get("tool_input") or {}).get("file_path", "")
if path.startswith("generated/") or "/generated/" in path:
    print(json.dumps({"hookSpecificOutput": {
        "hookEventName": "PreToolUse",
        "permissionDecision": "deny",
        "permissionDecisionReason": "generated/ is written by `make generate`; edit the templates instead",
    }}))
