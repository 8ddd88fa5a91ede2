package transport

import (
	"bytes"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// TestRequestSchemaStandsAlone: every operation's RequestSchema compiles on its own (each
// $ref resolves inside it) and takes and refuses what the protocol schema's <op>.request
// takes and refuses.
func TestRequestSchemaStandsAlone(t *testing.T) {
	compile := func(op string) *jsonschema.Schema {
		t.Helper()
		data, err := RequestSchema(op)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		c := jsonschema.NewCompiler()
		loc := "https://fastbrowser.dev/schemas/" + op + ".request.json"
		if err := c.AddResource(loc, doc); err != nil {
			t.Fatal(err)
		}
		sch, err := c.Compile(loc)
		if err != nil {
			t.Fatalf("%s: %v", op, err)
		}
		return sch
	}
	for _, s := range Ops() {
		compile(s.Name)
	}
	for _, c := range []struct {
		op, data string
		ok       bool
	}{
		{OpNavigate, `{"url":"http://127.0.0.1/"}`, true},
		{OpNavigate, `{}`, false},                           // url is required
		{OpNavigate, `{"url":"http://x","extra":1}`, false}, // unknown keys are refused
		{OpAct, `{"action":"click","target":{"ref":"e1"}}`, true},
		{OpAct, `{"action":"type","target":{"role":"textbox","name":"User"},"text":{"env":"PW"}}`, true},
		{OpAct, `{"action":"click","target":{"nope":1}}`, false}, // Target is a $def
		{OpObserve, `{"maxNodes":"many"}`, false},
	} {
		full := protocolSchemaAt(t, c.op+".request")
		for name, sch := range map[string]*jsonschema.Schema{"RequestSchema": compile(c.op), "protocol schema": full} {
			if err := validateJSON(t, sch, c.data); (err == nil) != c.ok {
				t.Errorf("%s %s %s: err %v, want ok=%v", name, c.op, c.data, err, c.ok)
			}
		}
	}
	if _, err := RequestSchema("nope"); err == nil || !strings.Contains(err.Error(), `"nope"`) {
		t.Errorf("an unknown op: %v", err)
	}
}
