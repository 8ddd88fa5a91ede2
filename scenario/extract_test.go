package scenario

import (
	"errors"
	"testing"
)

// TestParseRefusesBadExtractSchema: a scenario file's extract is validated by
// transport.Validate, so a schema that does not compile, or references the network, is
// refused at load with the operation's path.
func TestParseRefusesBadExtractSchema(t *testing.T) {
	file := func(schema string) []byte {
		return []byte(`{"version":1,"id":"x","operations":[{"op":"navigate","request":{"url":"http://127.0.0.1:4310/"}},` +
			`{"op":"extract","request":{"schema":` + schema + `}}]}`)
	}
	if _, err := Parse(file(`{"type":"object","properties":{"name":{"type":"string"}}}`)); err != nil {
		t.Fatalf("a good schema: %v", err)
	}
	for _, schema := range []string{
		`{"type":"object","properties":{"name":{"type":"strung"}}}`,
		`{"type":"object","properties":{"name":{"$ref":"http://127.0.0.1:4310/name.json"}}}`,
		`{"type":"array"}`,
	} {
		_, err := Parse(file(schema))
		var ve *ValidationError
		if !errors.As(err, &ve) || ve.Path != "operations[1].request.schema" {
			t.Errorf("%s: err = %v, want a refusal at operations[1].request.schema", schema, err)
		}
	}
}
