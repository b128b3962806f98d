#!/bin/sh
# Reads transcript_path (hookside: a temporary file with the current prompt).
t=$(jq -r .transcript_path)
if [ -f "$t" ] && grep -q "deploy to prod" "$t"; then
  echo "transcript mentions the prompt"
else
  echo "transcript missing: $t"
fi
