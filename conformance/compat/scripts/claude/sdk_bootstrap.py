#!/usr/bin/env python3
"""SessionStart: switch to background with the runtime async marker, then
prepare a dependency cache and report one JSON line when done. The slow
setup is stood in for by waiting on a FIFO ("go" in the plugin's data
directory) that a later hook writes; "done" is written at the end."""
import json
import os
import sys

json.load(sys.stdin)
print(json.dumps({"async": True, "asyncTimeout": 180000}), flush=True)
data = os.environ["CLAUDE_PLUGIN_DATA"]
gate = os.path.join(data, "go")
try:
    os.mkfifo(gate)
except FileExistsError:
    pass  # the releasing hook ran first and left a plain file
with open(gate) as f:
    f.read()
print(json.dumps({"metrics": {"bootstrap": 1}, "systemMessage": "dependency cache ready"}), flush=True)
with open(os.path.join(data, "done"), "w") as f:
    f.write("ready\n")
