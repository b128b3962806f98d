// Package expr is the pure expression layer of the V2 lifecycle bridge: the
// event envelope, deterministic event ids, the path language and its
// whitelist, the eight condition operators, value expressions, templates and
// input mappings, definitions with their defaults and validation, the
// execution hash, the idempotency key and the redacted run summaries.
//
// Everything here follows hooks-v2-handbook.zh.txt §3–§11 and
// design/PROTOCOL.md §5.1. The package does no I/O, starts no goroutines and
// keeps no mutable global state, so every rule is table-testable.
//
// Numbers read from JSON are float64 (or json.Number), as JavaScript would see
// them; every place where the original system converts a value to text
// (templates, contains/startsWith, stable stringify) uses JavaScript's
// Number::toString and JSON.stringify rules, so results are byte-identical.
package expr
