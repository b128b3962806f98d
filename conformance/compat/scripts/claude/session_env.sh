#!/usr/bin/env bash
# SessionStart: persist variables through CLAUDE_ENV_FILE, print context.
cat >/dev/null
if [ -n "${CLAUDE_ENV_FILE:-}" ]; then
  echo 'export NODE_ENV=development' >> "$CLAUDE_ENV_FILE"
fi
echo "Current branch: main"
