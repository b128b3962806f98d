#!/bin/sh
# Exec form: command + args, no shell. "$1" keeps its space.
cat >/dev/null
printf '{"additionalContext":"argc=%s first=%s"}\n' "$#" "$1"
