#!/usr/bin/env bash
# UserPromptSubmit hook: block prompts that contain something that looks like
# a secret (exit 2: the reason is stderr), otherwise add a short reminder as
# plain-text context (exit 0 with plain stdout).
input=$(cat)
prompt=$(printf '%s' "$input" | jq -r '.prompt // ""')
if printf '%s' "$prompt" | grep -qiE '(api[_-]?key|password)[[:space:]]*[:=]'; then
  echo "The prompt seems to contain a credential; remove it and try again." >&2
  exit 2
fi
echo "Reminder: keep changes small and run the tests."
