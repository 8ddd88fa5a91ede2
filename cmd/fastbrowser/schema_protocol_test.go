package main

import (
	"os"
	"testing"

	"github.com/fastbrowser/fastbrowser/transport"
)

// TestSchemaProtocolCommand: `fastbrowser schema --protocol` prints the generated protocol
// schema, the one docs/protocol.schema.json keeps (TestProtocolSchemaCommittedCopy).
func TestSchemaProtocolCommand(t *testing.T) {
	want, err := transport.ProtocolSchema()
	if err != nil {
		t.Fatal(err)
	}
	res := runCLI(t, nil, "schema", "--protocol")
	if res.code != 0 || res.stdout != string(want) {
		t.Fatalf("exit %d, %d bytes (want %d), stderr %s", res.code, len(res.stdout), len(want), res.stderr)
	}
	docs, err := os.ReadFile("../../docs/protocol.schema.json")
	if err != nil || string(docs) != res.stdout {
		t.Fatalf("docs/protocol.schema.json differs from `schema --protocol` (%v)", err)
	}
}
