#!/usr/bin/env python3
# Writes 1 MB of context; the per-stream cap (maxOutputBytes) applies.
import json
import sys

json.load(sys.stdin)
sys.stdout.write(json.dumps({"hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext": "x" * (1 << 20)}}))
