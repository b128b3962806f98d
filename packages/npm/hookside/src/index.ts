/**
 * hookside for Node hosts: resolveBinary() finds the sidecar binary of this
 * platform, spawnHookside() starts it and returns a typed JSON-RPC client.
 * The protocol types are generated from `hookside protocol schema`.
 */
export { BinaryNotFoundError, platformPackage, resolveBinary, SUPPORTED_PLATFORMS } from "./binary";
export { ConnectionClosedError, HooksideClient, spawnHookside } from "./client";
export type { Framing, HostHandlers, RestartInfo, RestartOptions, SpawnOptions } from "./client";
export { NDJSONMessageReader, NDJSONMessageWriter } from "./ndjson";
export * from "./protocol";
export { CancellationTokenSource, ErrorCodes, ResponseError } from "vscode-jsonrpc/node";
export type { CancellationToken } from "vscode-jsonrpc/node";
