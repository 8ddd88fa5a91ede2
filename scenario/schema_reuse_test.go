package scenario_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/fastbrowser/fastbrowser/scenario"
)

// defSchema compiles one of the schema's $defs (the fragment file, the run config) as a
// schema of its own, as an editor pointed at schema.json#/$defs/NAME would.
func defSchema(t *testing.T, name string) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(scenario.SchemaJSON))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(schemaID, doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(schemaID + "#/$defs/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

func validates(t *testing.T, sch *jsonschema.Schema, data string) error {
	t.Helper()
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader([]byte(data)))
	if err != nil {
		t.Fatal(err)
	}
	return sch.Validate(inst)
}

// TestSchemaIncludeFragmentAndConfig: the schema and the Go decoder agree on include
// entries, fragment files and run config files, valid and invalid.
func TestSchemaIncludeFragmentAndConfig(t *testing.T) {
	dir := t.TempDir()
	frag := `{"version":1,"fragment":"login","description":"x","operations":[{"id":"a","op":"read"},{"include":"more.json"}]}`
	more := `{"version":1,"fragment":"more","operations":[{"op":"read"}]}`
	scen := `{"version":1,"id":"s","operations":[{"include":"login.json"},{"id":"","include":"more.json"},{"id":"x","include":"more.json"}]}`
	for name, body := range map[string]string{"login.json": frag, "more.json": more, "s.json": scen} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := scenario.Load(filepath.Join(dir, "s.json")); err != nil {
		t.Errorf("Go refuses: %v", err)
	}
	if err := schemaErr(t, []byte(scen)); err != nil {
		t.Errorf("schema refuses the include entries: %v", err)
	}
	fragment := defSchema(t, "fragment")
	for _, ok := range []string{frag, more} {
		if err := validates(t, fragment, ok); err != nil {
			t.Errorf("fragment schema refuses %s: %v", ok, err)
		}
	}
	for _, bad := range []string{
		`{"version":1,"fragment":"f","operations":[]}`,
		`{"version":1,"operations":[{"op":"read"}]}`,
		`{"version":1,"fragment":"f","id":"s","operations":[{"op":"read"}]}`,
		`{"version":1,"fragment":"f","operations":[{"include":"x.json","op":"read"}]}`,
		`{"version":1,"fragment":"f","operations":[{"include":""}]}`,
	} {
		if validates(t, fragment, bad) == nil {
			t.Errorf("fragment schema accepts %s", bad)
		}
	}
	config := defSchema(t, "runConfig")
	good := `{"version":1,"fixture":{"baseUrl":"http://127.0.0.1:4310"},"allowedOrigins":["*"],"budgets":{"timeoutMs":5000},
		"egress":{"subresources":"report"},"viewport":{"width":800,"height":600},"retries":5,"jobs":64}`
	cfgPath := filepath.Join(dir, scenario.ConfigName)
	for _, c := range []struct {
		body string
		ok   bool
	}{{good, true}, {`{"version":1}`, true}, {`{"version":1,"retries":null,"jobs":null,"fixture":null}`, true},
		{`{"version":1,"model":{"provider":"anthropic","model":"claude-sonnet-4-5","apiKeyEnv":"ANTHROPIC_API_KEY"}}`, true},
		{`{"version":1,"model":{"provider":"openai","model":"m","apiKey":"k"}}`, false},
		{`{"version":1,"retries":6}`, false}, {`{"version":1,"jobs":0}`, false}, {`{"version":1,"hooks":{}}`, false}, {`{}`, false}} {
		if err := os.WriteFile(cfgPath, []byte(c.body), 0o600); err != nil {
			t.Fatal(err)
		}
		_, goErr := scenario.LoadConfig(cfgPath)
		schErr := validates(t, config, c.body)
		if (goErr == nil) != c.ok || (schErr == nil) != c.ok {
			t.Errorf("%s: Go %v, schema %v, want ok=%t", c.body, goErr, schErr, c.ok)
		}
	}
}
