#!/usr/bin/env python3
"""Stop hook of the loop-plugin kind: reads the transcript the host gives
(transcript_path) and keeps the agent going until it says DONE."""
import json
import sys

data = json.load(sys.stdin)
last = ""
with open(data["transcript_path"], encoding="utf-8") as f:
    for line in f:
        line = line.strip()
        if line:
            entry = json.loads(line)
            if entry.get("type") == "assistant":
                last = entry["message"]["content"]
if "DONE" in last:
    sys.exit(0)
print(json.dumps({"decision": "block", "reason": f"not finished yet (last: {last})"}))
