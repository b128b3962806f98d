#!/usr/bin/env node
// Node style: for await over stdin, JSON.parse, print a JSON answer.
let raw = "";
for await (const chunk of process.stdin) raw += chunk;
const input = JSON.parse(raw);
console.log(JSON.stringify({
  hookSpecificOutput: {
    hookEventName: input.hook_event_name,
    additionalContext: `prompt has ${input.prompt.length} chars (session ${input.session_id})`,
  },
}));
