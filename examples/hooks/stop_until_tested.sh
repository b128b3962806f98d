#!/usr/bin/env bash
# Stop hook: the first time the agent wants to stop, send it back once to run
# the tests (decision "block" + reason = continuation context); once the marker
# file exists, let it stop. stop_hook_active tells a continued run apart.
input=$(cat)
marker="$CLAUDE_PROJECT_DIR/.tests-ran"
if [ -e "$marker" ]; then
  exit 0
fi
touch "$marker"
active=$(printf '%s' "$input" | jq -r '.stop_hook_active')
jq -cn --arg a "$active" '{decision: "block", reason: ("Run the test suite before you finish (stop_hook_active=" + $a + ").")}'
