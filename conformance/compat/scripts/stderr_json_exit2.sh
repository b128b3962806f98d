#!/bin/sh
# Prints its JSON on stderr (a common mistake) and exits 2: the exit code
# blocks, and the stderr text, JSON or not, is the reason.
cat >/dev/null
echo '{"decision":"block","reason":"policy says no"}' >&2
exit 2
