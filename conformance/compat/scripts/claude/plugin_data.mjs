#!/usr/bin/env node
// A plugin SessionStart hook that installs state into CLAUDE_PLUGIN_DATA.
import { writeFileSync, existsSync } from "node:fs";
import { join } from "node:path";
for await (const _ of process.stdin) { /* drain */ }
const dir = process.env.CLAUDE_PLUGIN_DATA;
const ok = dir && existsSync(dir);
if (ok) writeFileSync(join(dir, "installed.txt"), process.env.CLAUDE_PLUGIN_ROOT ?? "");
process.stdout.write(JSON.stringify({
  hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: ok ? "plugin data ready" : "no plugin data dir" },
}));
