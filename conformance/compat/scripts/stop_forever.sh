#!/bin/sh
# A Stop hook that ignores stop_hook_active: it always asks to go on.
# Only the continuation limit ends the loop.
cat >/dev/null
echo '{"decision": "block", "reason": "run the tests again"}'
