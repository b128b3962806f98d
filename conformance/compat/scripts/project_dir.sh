#!/bin/sh
# Lives in a project whose path has a space; found through "$CLAUDE_PROJECT_DIR".
cat >/dev/null
printf 'project=%s pwd=%s\n' "$CLAUDE_PROJECT_DIR" "$(pwd)"
