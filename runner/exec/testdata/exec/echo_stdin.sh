#!/bin/sh
# Echoes stdin back and prints its working directory and $HOOKSIDE_TEST on stderr.
cat
printf '%s|%s' "$(pwd)" "$HOOKSIDE_TEST" >&2
