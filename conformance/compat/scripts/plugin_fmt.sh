#!/bin/sh
# A plugin script found through ${CLAUDE_PLUGIN_ROOT}.
file=$(jq -r .tool_input.file_path)
printf '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"formatted %s with %s"}}\n' "$file" "$(basename "$CLAUDE_PLUGIN_ROOT")"
