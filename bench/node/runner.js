// The Node.js reference runner of the hookside benchmarks: what a host-side
// runner written in Node does for its hooks, driven like hookside (a
// long-lived process: one NDJSON request in, one NDJSON answer out), so
// node's own start-up is not counted.
//
//   node runner.js [--n N] [--parallel] [--timeout MS] [--cap BYTES] -- prog [args…]
//
// Request:  {"id": 1, "input": {…hook stdin object…}}
// Answer:   {"id": 1, "result": {"decision": …, "runs": [{exitCode, signal,
//            durationMs, timedOut, stdoutTruncated, stderrTruncated}], "answers": [...]}}
//
// Per hook: spawn (no shell, own process group), write JSON.stringify(input)
// and a newline to stdin then close it, collect stdout and stderr capped at
// --cap bytes each (draining past the cap), deadline = SIGTERM to the group,
// SIGKILL 500 ms later, then parse stdout as JSON when it is an object.
'use strict';
const { spawn } = require('child_process');
const readline = require('readline');

const argv = process.argv.slice(2);
const opts = { n: 1, parallel: false, timeout: 60000, cap: 32768 };
let i = 0;
for (; i < argv.length && argv[i] !== '--'; i++) {
  const a = argv[i];
  if (a === '--n') opts.n = Number(argv[++i]);
  else if (a === '--parallel') opts.parallel = true;
  else if (a === '--timeout') opts.timeout = Number(argv[++i]);
  else if (a === '--cap') opts.cap = Number(argv[++i]);
  else { process.stderr.write(`runner.js: unknown flag ${a}\n`); process.exit(2); }
}
const [prog, ...progArgs] = argv.slice(i + 1);
if (!prog) { process.stderr.write('runner.js: name the hook program after --\n'); process.exit(2); }

function collector(cap) {
  const chunks = [];
  let kept = 0;
  let truncated = false;
  return {
    push(chunk) {
      if (kept < cap) {
        const take = Math.min(cap - kept, chunk.length);
        chunks.push(take === chunk.length ? chunk : chunk.subarray(0, take));
        kept += take;
        if (take < chunk.length) truncated = true;
      } else if (chunk.length > 0) truncated = true;
    },
    text() { return Buffer.concat(chunks, kept).toString('utf8'); },
    get truncated() { return truncated; },
  };
}

function runHook(stdinText) {
  return new Promise((resolve) => {
    const t0 = process.hrtime.bigint();
    let child;
    try {
      child = spawn(prog, progArgs, { stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    } catch (err) {
      resolve({ exitCode: null, error: String(err), durationMs: 0 });
      return;
    }
    const out = collector(opts.cap);
    const errOut = collector(opts.cap);
    let timedOut = false;
    let killTimer = null;
    const killGroup = (sig) => { try { process.kill(-child.pid, sig); } catch (_) { /* gone */ } };
    const deadline = setTimeout(() => {
      timedOut = true;
      killGroup('SIGTERM');
      killTimer = setTimeout(() => killGroup('SIGKILL'), 500);
    }, opts.timeout);
    child.stdout.on('data', (c) => out.push(c));
    child.stderr.on('data', (c) => errOut.push(c));
    child.stdin.on('error', () => { /* EPIPE: the hook did not read stdin */ });
    child.on('error', (err) => {
      clearTimeout(deadline);
      resolve({ exitCode: null, error: String(err), durationMs: 0 });
    });
    child.on('close', (code, signal) => {
      clearTimeout(deadline);
      if (killTimer) clearTimeout(killTimer);
      killGroup('SIGKILL'); // whatever the hook left in its group
      const stdout = out.text().trim();
      let answer = null;
      if (code === 0 && stdout.startsWith('{')) {
        try { answer = JSON.parse(stdout); } catch (_) { answer = null; }
      }
      resolve({
        exitCode: code, signal, timedOut, answer,
        durationMs: Number(process.hrtime.bigint() - t0) / 1e6,
        stdoutTruncated: out.truncated, stderrTruncated: errOut.truncated,
        stderr: code === 2 ? errOut.text().trim() : undefined,
      });
    });
    child.stdin.end(stdinText);
  });
}

async function handle(req) {
  const stdinText = JSON.stringify(req.input || {}) + '\n';
  let runs;
  if (opts.parallel) {
    runs = await Promise.all(Array.from({ length: opts.n }, () => runHook(stdinText)));
  } else {
    runs = [];
    for (let k = 0; k < opts.n; k++) runs.push(await runHook(stdinText));
  }
  // Merge as a host would: deny > ask > allow, exit 2 blocks.
  let decision = null;
  const rank = { allow: 1, ask: 2, deny: 3 };
  let blocked = false;
  for (const r of runs) {
    if (r.exitCode === 2) blocked = true;
    const d = r.answer && r.answer.hookSpecificOutput && r.answer.hookSpecificOutput.permissionDecision;
    if (d && (!decision || rank[d] > rank[decision])) decision = d;
  }
  if (decision === 'deny') blocked = true;
  const answers = runs.map((r) => r.answer);
  for (const r of runs) delete r.answer;
  return { decision, blocked, answers, runs };
}

const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
rl.on('line', (line) => {
  if (!line.trim()) return;
  let req;
  try { req = JSON.parse(line); } catch (err) {
    process.stdout.write(JSON.stringify({ id: null, error: { code: -32700, message: String(err) } }) + '\n');
    return;
  }
  handle(req).then((result) => {
    process.stdout.write(JSON.stringify({ id: req.id, result }) + '\n');
  });
});
rl.on('close', () => { /* exit once pending hooks settle */ });
