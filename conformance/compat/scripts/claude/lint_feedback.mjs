#!/usr/bin/env node
// PostToolUse lint feedback: decision "block" + reason goes to the model.
let raw = "";
for await (const chunk of process.stdin) raw += chunk;
const input = JSON.parse(raw);
const file = input.tool_input?.file_path ?? "";
if (file.endsWith(".ts")) {
  process.stdout.write(JSON.stringify({
    decision: "block",
    reason: `${file}: 2 lint errors (no-unused-vars)`,
    hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: "eslint ran" },
  }));
} else if (file.endsWith(".py")) {
  process.stderr.write(`ruff: ${file}: E501 line too long\n`);
  process.exit(2);
}
