// PostToolUse hook for Edit/Write: remind the model to run the formatter on
// the file it just changed (additional context).
let raw = "";
for await (const chunk of process.stdin) raw += chunk;
const input = JSON.parse(raw);
const file = input.tool_input?.file_path ?? input.toolInput?.file_path ?? "the file";
const context = `You changed ${file}; run the formatter before committing.`;
process.stdout.write(JSON.stringify({
  hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: context },
}));
