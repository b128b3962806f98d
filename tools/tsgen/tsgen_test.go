package main

import (
	"bytes"
	"os"
	"testing"
)

// TestCommittedTypesMatchTheSchema fails when protocol.ts was not
// regenerated after a schema change (`make generate`).
func TestCommittedTypesMatchTheSchema(t *testing.T) {
	schema, err := os.ReadFile("../../rpc/schema/protocol.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	want, err := Generate(schema)
	if err != nil {
		t.Fatal(err)
	}
	have, err := os.ReadFile("../../packages/npm/hookside/src/protocol.ts")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(have, want) {
		t.Fatal("packages/npm/hookside/src/protocol.ts is not generated from rpc/schema/protocol.schema.json: run `make generate`")
	}
}

func TestUnsupportedKeywordIsAnError(t *testing.T) {
	_, err := Generate([]byte(`{"$defs": {"X": {"type": "object", "oneOf": []}}}`))
	if err == nil || !bytes.Contains([]byte(err.Error()), []byte(`"oneOf"`)) {
		t.Fatalf("err = %v, want one naming oneOf", err)
	}
}
