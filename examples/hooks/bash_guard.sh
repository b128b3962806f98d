#!/usr/bin/env bash
# PreToolUse hook for Bash: deny `rm -rf`, ask before `git push`, allow the rest.
# Reads the Claude Code–style snake_case fields with jq.
input=$(cat)
cmd=$(printf '%s' "$input" | jq -r '.tool_input.command // ""')
decide() {
  jq -cn --arg d "$1" --arg r "$2" \
    '{hookSpecificOutput: {hookEventName: "PreToolUse", permissionDecision: $d, permissionDecisionReason: $r}}'
}
case "$cmd" in
  *"rm -rf"*) decide deny "rm -rf is not allowed in this project" ;;
  *"git push"*) decide ask "pushing needs a human's yes" ;;
  *) decide allow "looks harmless" ;;
esac
