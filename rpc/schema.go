package rpc

import _ "embed"

// ProtocolSchema is the JSON Schema (draft 2020-12) of the shell-hook
// methods' params and results and of the error object (docs/protocol.md
// §2–§4); `hookside protocol schema` prints it.
//
//go:embed schema/protocol.schema.json
var ProtocolSchema []byte
