#!/usr/bin/env bash
# PermissionRequest hook: the host is about to ask the user whether a tool may
# run. Answer for the user when the case is clear: allow read-only tools, deny
# Bash commands that use sudo; say nothing otherwise (exit 0, no output), so
# the host asks as usual.
input=$(cat)
tool=$(printf '%s' "$input" | jq -r '.tool_name // ""')
cmd=$(printf '%s' "$input" | jq -r '.tool_input.command // ""')
answer() {
  jq -cn --arg d "$1" --arg r "$2" \
    '{hookSpecificOutput: {hookEventName: "PermissionRequest", permissionDecision: $d, permissionDecisionReason: $r}}'
}
case "$tool" in
  Read | Glob | Grep) answer allow "read-only tool" ;;
  Bash)
    case "$cmd" in
      *sudo*) answer deny "sudo is never allowed from the agent" ;;
    esac
    ;;
esac
exit 0
