#!/usr/bin/env python3
"""SessionStart hook: tell the model about the project (additional context)."""
import json
import os
import sys

event = json.load(sys.stdin)
notes = os.path.join(event["cwd"], "NOTES.md")
context = f"Session {event['session_id']} started ({event.get('source', 'startup')})."
if os.path.exists(notes):
    with open(notes, encoding="utf-8") as f:
        context += " Project notes: " + f.read().strip()
print(json.dumps({"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": context}}))
