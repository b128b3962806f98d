import { AsyncLocalStorage } from "node:async_hooks";
import { spawn, type ChildProcess } from "node:child_process";
import {
  CancellationToken,
  createMessageConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type MessageConnection,
} from "vscode-jsonrpc/node";
import { resolveBinary } from "./binary";
import { NDJSONMessageReader, NDJSONMessageWriter } from "./ndjson";
import {
  PROTOCOL_VERSION,
  ProtocolClient,
  type HostRequests,
  type InitializeParams,
  type InitializeResult,
  type Notifications,
  type Requests,
} from "./protocol";

/** Handlers of the requests hookside sends to the host (host/*), by method. */
export type HostHandlers = {
  [M in keyof HostRequests]?: (
    params: HostRequests[M]["params"],
    token: CancellationToken,
  ) => HostRequests[M]["result"] | Promise<HostRequests[M]["result"]>;
};

/** Restart on crash: delays grow from initialDelayMs, doubling up to maxDelayMs. */
export interface RestartOptions {
  /** Consecutive restarts before giving up (default 5). A process that stayed up longer than maxDelayMs resets the count. */
  maxRestarts?: number;
  /** Delay before the first restart, in ms (default 200). */
  initialDelayMs?: number;
  /** Longest delay between restarts, in ms (default 10000). */
  maxDelayMs?: number;
}

/** What onRestart is told. Sessions of the crashed process are gone: open them again. */
export interface RestartInfo {
  attempt: number;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  initializeResult: InitializeResult;
}

export interface SpawnOptions {
  /** The hookside binary (default: resolveBinary(): $HOOKSIDE_BINARY or the platform package). */
  binary?: string;
  /** The hookside home (--home); initialize.homeDir overrides it. */
  home?: string;
  /** More app-server arguments, e.g. ["--log-level", "debug"]. */
  args?: string[];
  /**
   * The framing on hookside's stdio (`--framing`): "content-length" (LSP
   * headers, the default here) or "ndjson" (one JSON object per line,
   * hookside's own default). Both carry the same protocol.
   */
  framing?: Framing;
  /** The process environment (default process.env). */
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** initialize params; protocolVersion defaults to "1". */
  initialize: Omit<InitializeParams, "protocolVersion"> & { protocolVersion?: "1" };
  /** Answers to host/* requests; a method without a handler is answered -32601. */
  hostHandlers?: HostHandlers;
  /** Restart the process when it exits unexpectedly (default on); false turns it off. */
  restart?: RestartOptions | false;
  /** Called after a restart re-initialized the connection (before waiting requests are sent). */
  onRestart?: (info: RestartInfo) => void | Promise<void>;
  /** hookside's stderr (its logs), as text; default: discarded. */
  stderr?: (chunk: string) => void;
}

/** The framings `hookside app-server --stdio --framing` accepts. */
export type Framing = "content-length" | "ndjson";

/** Thrown by requests when the process is gone for good (closed, or restarts exhausted). */
export class ConnectionClosedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConnectionClosedError";
  }
}

type NoteHandler = (params: unknown) => void;

/** Set while onRestart runs: its requests go out at once, everyone else's wait until it returns. */
const inRestartHook = new AsyncLocalStorage<boolean>();

/**
 * A connection to one `hookside app-server --stdio` process (Content-Length
 * or NDJSON framing, SpawnOptions.framing), built on vscode-jsonrpc: one typed method per request (from
 * ProtocolClient), typed notifications (on, on<Name>), host/* requests
 * answered by the handler map, cancellation through CancellationToken
 * ($/cancelRequest), restart on crash with backoff, and close() = shutdown +
 * exit.
 */
export class HooksideClient extends ProtocolClient {
  /** The initialize result of the current process. */
  initializeResult!: InitializeResult;
  /** The current hookside process. */
  process!: ChildProcess;

  private conn!: MessageConnection;
  /** Resolves when requests may be sent: the process is initialized (and onRestart has returned). */
  private ready: Promise<void>;
  /** Resolves when the current process is initialized. */
  private started: Promise<void>;
  private closing = false;
  private closedError?: Error;
  private attempts = 0;
  private startedAt = 0;
  private readonly notes = new Map<string, Set<NoteHandler>>();
  private readonly exitWaiters = new Set<(code: number | null) => void>();

  /** Use spawnHookside. */
  constructor(private readonly opts: SpawnOptions) {
    super();
    this.started = this.start();
    this.ready = this.started;
  }

  /** Resolves once the first process is initialized. */
  whenReady(): Promise<void> {
    return this.ready;
  }

  async request<M extends keyof Requests>(
    method: M,
    params: Requests[M]["params"],
    token?: CancellationToken,
  ): Promise<Requests[M]["result"]> {
    await (inRestartHook.getStore() ? this.started : this.ready);
    if (this.closedError) throw this.closedError;
    const args: unknown[] = [];
    if (params !== undefined && params !== null) args.push(params);
    if (token) args.push(token);
    return this.conn.sendRequest(method, ...args) as Promise<Requests[M]["result"]>;
  }

  on<M extends keyof Notifications>(method: M, handler: (params: Notifications[M]) => void): () => void {
    let set = this.notes.get(method);
    if (!set) this.notes.set(method, (set = new Set()));
    set.add(handler as NoteHandler);
    return () => set!.delete(handler as NoteHandler);
  }

  /** Clean shutdown: shutdown (in-flight requests get hookside's grace), exit, and the process's exit status. */
  async close(timeoutMs = 10000): Promise<number | null> {
    if (this.closing) return this.waitExit(timeoutMs);
    this.closing = true;
    this.closedError = new ConnectionClosedError("hookside: the connection was closed");
    try {
      await this.ready;
      await this.conn.sendRequest("shutdown");
      await this.conn.sendNotification("exit");
    } catch {
      // The process is already gone: nothing to shut down.
    }
    return this.waitExit(timeoutMs);
  }

  private waitExit(timeoutMs: number): Promise<number | null> {
    if (this.process.exitCode !== null || this.process.signalCode !== null) {
      return Promise.resolve(this.process.exitCode);
    }
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.process.kill("SIGKILL"), timeoutMs);
      this.exitWaiters.add((code) => {
        clearTimeout(timer);
        resolve(code);
      });
    });
  }

  private async start(): Promise<void> {
    const o = this.opts;
    const bin = o.binary ?? resolveBinary(o.env ?? process.env);
    const framing: Framing = o.framing ?? "content-length";
    if (framing !== "content-length" && framing !== "ndjson") {
      throw new TypeError(`hookside: framing must be "content-length" or "ndjson", not ${JSON.stringify(framing)}`);
    }
    const args = ["app-server", "--stdio", "--framing", framing, ...(o.home ? ["--home", o.home] : []), ...(o.args ?? [])];
    const child = spawn(bin, args, { cwd: o.cwd, env: o.env ?? process.env, stdio: ["pipe", "pipe", "pipe"], windowsHide: true });
    this.process = child;
    this.startedAt = Date.now();
    child.stderr!.setEncoding("utf8");
    child.stderr!.on("data", (chunk: string) => o.stderr?.(chunk));
    const spawned = new Promise<void>((resolve, reject) => {
      child.once("spawn", resolve);
      child.once("error", reject);
    });
    const conn =
      framing === "ndjson"
        ? createMessageConnection(new NDJSONMessageReader(child.stdout!), new NDJSONMessageWriter(child.stdin!))
        : createMessageConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
    this.conn = conn;
    conn.onNotification((method: string, params: unknown) => {
      for (const h of this.notes.get(method) ?? []) h(params);
    });
    for (const [method, handler] of Object.entries(o.hostHandlers ?? {})) {
      conn.onRequest(method, (params: unknown, token: CancellationToken) =>
        (handler as (p: unknown, t: CancellationToken) => unknown)(params, token),
      );
    }
    conn.onError(() => {
      // A broken pipe shows as the process exit below.
    });
    child.once("exit", (code, signal) => this.exited(conn, code, signal));
    conn.listen();
    await spawned;
    const params: InitializeParams = { ...o.initialize, protocolVersion: PROTOCOL_VERSION };
    this.initializeResult = (await conn.sendRequest("initialize", params)) as InitializeResult;
    await conn.sendNotification("initialized", {});
  }

  private exited(conn: MessageConnection, code: number | null, signal: NodeJS.Signals | null): void {
    conn.dispose();
    for (const w of this.exitWaiters) w(code);
    this.exitWaiters.clear();
    const r = this.opts.restart === false ? undefined : (this.opts.restart ?? {});
    if (this.closing) return;
    if (!r) {
      this.closedError = new ConnectionClosedError(`hookside exited (code ${code}, signal ${signal})`);
      return;
    }
    const max = r.maxRestarts ?? 5;
    const initial = r.initialDelayMs ?? 200;
    const maxDelay = r.maxDelayMs ?? 10000;
    if (Date.now() - this.startedAt > maxDelay) this.attempts = 0;
    this.attempts++;
    if (this.attempts > max) {
      this.closedError = new ConnectionClosedError(`hookside exited (code ${code}, signal ${signal}); gave up after ${max} restarts`);
      this.ready = this.started = Promise.reject(this.closedError);
      this.ready.catch(() => undefined);
      return;
    }
    const attempt = this.attempts;
    const delay = Math.min(maxDelay, initial * 2 ** (attempt - 1));
    this.started = new Promise<void>((resolve) => setTimeout(resolve, delay)).then(() => this.start());
    this.ready = this.started.then(() =>
      inRestartHook.run(true, async () => {
        await this.opts.onRestart?.({ attempt, exitCode: code, signal, initializeResult: this.initializeResult });
      }),
    );
    this.started.catch(() => undefined);
    this.ready.catch(() => undefined);
  }
}

/** Spawns hookside and resolves once it is initialized. */
export async function spawnHookside(options: SpawnOptions): Promise<HooksideClient> {
  const c = new HooksideClient(options);
  await c.whenReady();
  return c;
}
