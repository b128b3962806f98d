#!/usr/bin/env python3
"""SessionStart: switch to background with the runtime async marker, then
prepare a dependency cache and report one JSON line when done."""
import json
import sys

json.load(sys.stdin)
print(json.dumps({"async": True, "asyncTimeout": 180000}), flush=True)
# ... slow setup would run here ...
print(json.dumps({"metrics": {"bootstrap": 1}, "systemMessage": "dependency cache ready"}), flush=True)
