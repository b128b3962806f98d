#!/usr/bin/env bash
# PostToolUse[Bash] asyncRewake reviewer: after a git commit, report
# findings on stderr and exit 2 so the model is woken to address them.
input=$(cat)
cmd=$(printf '%s' "$input" | python3 -c 'import json,sys; print(json.load(sys.stdin)["tool_input"]["command"])')
case "$cmd" in
  *"git commit"*)
    echo '{"metrics":{"findings":1},"rewakeSummary":"Commit review found 1 issue"}'
    echo "app.js:3 innerHTML set from user input (XSS)" >&2
    exit 2 ;;
esac
exit 0
