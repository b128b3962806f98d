package rpc

import _ "embed"

// ProtocolSchema is the JSON Schema (draft 2020-12) of the whole protocol
// (docs/protocol.md §1–§6): every method a host calls, every notification
// hookside sends, every server→client request (host/*) and the client
// notifications, each a $defs entry named after its method with
// "x-direction" (request, notification, hostRequest, clientNotification),
// "params" and, for requests, "result"; plus the shared shapes and the
// error object. `hookside protocol schema` prints it; the TypeScript
// client's types are generated from it (tools/tsgen).
//
//go:embed schema/protocol.schema.json
var ProtocolSchema []byte
