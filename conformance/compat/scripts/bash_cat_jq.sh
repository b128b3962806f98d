#!/bin/bash
# The most common Claude Code hook: read stdin with $(cat), pick fields with jq,
# block with exit 2 and a message on stderr.
input=$(cat)
cmd=$(echo "$input" | jq -r '.tool_input.command // empty')
event=$(echo "$input" | jq -r '.hook_event_name')
if [[ "$cmd" == *"rm -rf"* ]]; then
  echo "Dangerous command blocked: $cmd ($event)" >&2
  exit 2
fi
exit 0
