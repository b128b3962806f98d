#!/usr/bin/env bash
# UserPromptSubmit: block prompts holding secrets, else add context and a title.
input=$(cat)
prompt=$(jq -r '.prompt' <<<"$input")
if grep -qi 'password' <<<"$prompt"; then
  jq -n '{decision: "block", reason: "Prompt looks like it contains a secret"}'
  exit 0
fi
jq -n --arg p "$prompt" '{hookSpecificOutput: {hookEventName: "UserPromptSubmit", additionalContext: ("prompt length " + ($p|length|tostring)), sessionTitle: ($p|.[0:20])}}'
