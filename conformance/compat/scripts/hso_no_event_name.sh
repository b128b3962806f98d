#!/bin/sh
# hookSpecificOutput without hookEventName is still read.
cat >/dev/null
echo '{"hookSpecificOutput": {"permissionDecision": "allow", "permissionDecisionReason": "read-only tool"}}'
