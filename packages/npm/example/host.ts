// A minimal agent host on hookside: a PreToolUse deny, a Stop continuation,
// a workspace hook going from pending to trusted through the review flow,
// and a V2 lifecycle event answered by a host/notification/show handler.
// Run with HOOKSIDE_HOME (user config) and EXAMPLE_WORKSPACE (a workspace
// with hooks) set; make test-npm does.
import assert from "node:assert/strict";
import { spawnHookside, type HostToolInvokeParams, type HostNotificationShowParams, type Merged } from "hookside";

async function main(): Promise<void> {
  const workspace = process.env.EXAMPLE_WORKSPACE!;
  let showNotification!: (p: HostNotificationShowParams) => void;
  const shown = new Promise<HostNotificationShowParams>((resolve) => (showNotification = resolve));
  const hs = await spawnHookside({
    home: process.env.HOOKSIDE_HOME,
    initialize: { clientInfo: { name: "example-host", version: "1" }, capabilities: { hostActions: ["notification"] } },
    hostHandlers: {
      "host/notification/show": (p) => (showNotification(p), { shown: true }),
      "host/tool/invoke": (p: HostToolInvokeParams) => ({ ok: false, errorCode: "not_offered", message: `no tool ${p.target.toolName}` }),
    },
  });
  hs.onHookCompleted((n) => console.log(`  hook ${n.hookId}: ${n.outcome}`));
  console.log(`hookside ${hs.initializeResult.serverInfo.version}, framing ${hs.initializeResult.capabilities.framing}`);

  const open = await hs.sessionOpen({ sessionId: "demo", cwd: workspace, workspaceHooks: true });
  assert.equal(open.workspaceHooks.counts.pending_trust, 1);
  // A zcode session answers with Merged (a claude-profile one with ClaudeMerged).
  const deny = (await hs.hooksRun({ sessionId: "demo", event: "PreToolUse", turnId: "t1", input: { toolName: "Bash", toolInput: { command: "rm -rf /" } } })) as Merged;
  assert.equal(deny.decision, "deny");
  console.log(`PreToolUse: ${deny.decision} (${deny.decisionReason})`);

  const before = await hs.hooksRun({ sessionId: "demo", event: "UserPromptSubmit", turnId: "t1", input: { prompt: "hi" } });
  assert.match(before.runs[0].reason ?? "", /pending_trust/);
  const review = await hs.workspaceHooksReviewStart({ sessionId: "demo" });
  const digests = review.declarations!.map((d) => d.digest);
  const granted = await hs.workspaceHooksReviewSubmit({ reviewId: review.reviewId, decision: "trust_selected", digests });
  assert.deepEqual(granted.trusted, digests);
  const after = await hs.hooksRun({ sessionId: "demo", event: "UserPromptSubmit", turnId: "t1", input: { prompt: "hi" } });
  assert.deepEqual(after.additionalContext, ["workspace says hi"]);
  console.log(`workspace hook: ${review.declarations![0].trustState} -> trusted; context ${JSON.stringify(after.additionalContext)}`);

  const stop = await hs.hooksRun({ sessionId: "demo", event: "Stop", turnId: "t1", input: { lastAssistantMessage: "done" } });
  assert.equal(stop.stop?.continueTurn, true);
  console.log(`Stop: continue the turn with ${JSON.stringify(stop.stop?.continuation)}`);

  await hs.v2DefinitionsCreate({ definition: { id: "done", name: "Turn done", eventName: "turn.completed",
    action: { type: "notification", title: { template: "Done: ${session.title}" } } } });
  await hs.v2BindingsCreate({ hookId: "done", scopeKind: "application" });
  await hs.v2EventsEmit({ eventName: "turn.completed", session: { id: "demo", title: "example" }, turn: { id: "t1" }, workspaces: [], payload: {} });
  const note = await shown;
  assert.equal(note.title, "Done: example");
  console.log(`V2 turn.completed -> host/notification/show "${note.title}"`);

  await hs.sessionClose({ sessionId: "demo" });
  assert.equal(await hs.close(), 0);
  console.log("clean shutdown");
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
