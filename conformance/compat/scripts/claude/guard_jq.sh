#!/usr/bin/env bash
# PreToolUse guard in the style of public Bash validators: jq on stdin,
# a JSON deny for rm -rf, exit 2 with stderr for a force push.
set -euo pipefail
input=$(cat)
cmd=$(jq -r '.tool_input.command // empty' <<<"$input")
if [[ $(jq -r 'has("toolName")' <<<"$input") == "true" ]]; then
  echo "camelCase field in the claude stdin" >&2
  exit 1
fi
case "$cmd" in
  *"rm -rf"*)
    jq -n --arg c "$cmd" '{hookSpecificOutput: {hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: ("Destructive command blocked: " + $c)}}'
    ;;
  *"push --force"*)
    echo "Force pushes are not allowed" >&2
    exit 2
    ;;
esac
exit 0
