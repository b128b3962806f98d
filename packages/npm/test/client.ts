// The client's behaviour against the packed binary: cancellation
// ($/cancelRequest → -32800), a request in flight at a crash (-32097),
// restart on crash with backoff (and re-opening
// the session in onRestart), no restart when turned off, clean shutdown.
import assert from "node:assert/strict";
import { CancellationTokenSource, ConnectionClosedError, ErrorCodes, ResponseError, spawnHookside, type Merged, type RestartInfo } from "hookside";

async function main(): Promise<void> {
  const cwd = process.env.EXAMPLE_WORKSPACE!;
  let restarted!: (info: RestartInfo) => void;
  const restart = new Promise<RestartInfo>((resolve) => (restarted = resolve));
  const hs = await spawnHookside({
    home: process.env.HOOKSIDE_HOME,
    initialize: { clientInfo: { name: "client-test" } },
    restart: { initialDelayMs: 50, maxDelayMs: 1000 },
    onRestart: async (info) => {
      await hs.sessionOpen({ sessionId: "c", cwd });
      restarted(info);
    },
  });
  await hs.sessionOpen({ sessionId: "c", cwd });

  const cts = new CancellationTokenSource();
  const off = hs.onHookStarted((n) => n.hookId.includes("PreToolUse[1]") && cts.cancel());
  const t0 = Date.now();
  const err = await hs.hooksRun({ sessionId: "c", event: "PreToolUse", input: { toolName: "Slow" } }, cts.token).then(
    () => undefined, (e: unknown) => e);
  off();
  assert.ok(err instanceof ResponseError, `want a ResponseError, got ${err}`);
  assert.equal(err.code, -32800);
  console.log(`cancelled a 30 s hook after ${Date.now() - t0} ms: ${err.code} ${err.message}`);

  // A request in flight when the process dies rejects with vscode-jsonrpc's
  // PendingResponseRejected (-32097), not ConnectionClosedError (README).
  const pid = hs.process.pid;
  const started = new Promise<void>((resolve) => {
    const offStarted = hs.onHookStarted((n) => n.hookId.includes("PreToolUse[1]") && (offStarted(), resolve()));
  });
  const pending = hs.hooksRun({ sessionId: "c", event: "PreToolUse", input: { toolName: "Slow" } }).then(
    () => undefined, (e: unknown) => e);
  await started;
  hs.process.kill("SIGKILL");
  const lost = await pending;
  assert.ok(lost instanceof ResponseError, `want a ResponseError, got ${lost}`);
  assert.equal(lost.code, ErrorCodes.PendingResponseRejected);
  assert.equal(lost.code, -32097);
  console.log(`in flight at SIGKILL: ${lost.code} ${lost.message}`);
  const info = await restart;
  assert.equal(info.attempt, 1);
  assert.equal(info.signal, "SIGKILL");
  assert.notEqual(hs.process.pid, pid);
  const list = await hs.hooksList({ sessionId: "c" });
  console.log(`restarted after SIGKILL (attempt ${info.attempt}); ${list.hooks.length} hooks listed in the reopened session`);
  assert.equal(await hs.close(), 0);

  const once = await spawnHookside({ home: process.env.HOOKSIDE_HOME, initialize: { clientInfo: { name: "no-restart" } }, restart: false });
  const gone = new Promise((resolve) => once.process.once("exit", resolve));
  once.process.kill("SIGKILL");
  await gone;
  const closed = await once.v2SettingsGet().then(() => undefined, (e: unknown) => e);
  assert.ok(closed instanceof ConnectionClosedError, `want ConnectionClosedError, got ${closed}`);
  console.log(`restart: false → ${closed.message}`);

  // NDJSON framing: the same protocol, one JSON object per line. Newlines,
  // U+2028 and multi-byte characters inside strings stay inside one frame;
  // a 300 kB frame is split over many pipe reads.
  const nd = await spawnHookside({ framing: "ndjson", home: process.env.HOOKSIDE_HOME, initialize: { clientInfo: { name: "ndjson" } }, restart: false });
  assert.equal(nd.initializeResult.capabilities.framing, "ndjson");
  await nd.sessionOpen({ sessionId: "n", cwd });
  const deny = (await nd.hooksRun({ sessionId: "n", event: "PreToolUse", input: { toolName: "Bash", toolInput: { command: "rm -rf /" } } })) as Merged; // a zcode session
  assert.equal(deny.decision, "deny");
  const title = "line 1\nline 2\u2028 ü 😀 " + "x".repeat(300000);
  const v = await nd.v2DefinitionsPreview({ definition: { name: "big", eventName: "turn.completed", action: { type: "notification", title: { const: title } } } });
  assert.equal(v.valid, true, JSON.stringify(v.problems));
  assert.equal((v.fields as { title: string }).title, title);
  const badFraming = await spawnHookside({ framing: "lines" as never, initialize: { clientInfo: { name: "x" } } }).then(() => undefined, (e: unknown) => e);
  assert.ok(badFraming instanceof TypeError, `want a TypeError for an unknown framing, got ${badFraming}`);
  assert.equal(await nd.close(), 0);
  console.log(`ndjson: deny and a ${title.length}-character round trip`);
}

setTimeout(() => {
  console.error("client test: no result within 60 s");
  process.exit(1);
}, 60000).unref();

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
