package scenario_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/fastbrowser/fastbrowser/scenario"
	"github.com/fastbrowser/fastbrowser/transport"
)

const schemaID = "https://fastbrowser.dev/schemas/scenario-v1.json"

var compiledSchema = sync.OnceValues(func() (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(scenario.SchemaJSON))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat() // the metaschema's "format": "regex" then checks every pattern
	if err := c.AddResource(schemaID, doc); err != nil {
		return nil, err
	}
	return c.Compile(schemaID)
})

func scenarioSchema(t testing.TB) *jsonschema.Schema {
	t.Helper()
	sch, err := compiledSchema()
	if err != nil {
		t.Fatalf("compile scenario/schema.json: %v", err)
	}
	return sch
}

// schemaErr validates one document against the schema (nil: valid).
func schemaErr(t testing.TB, data []byte) error {
	t.Helper()
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return err
	}
	return scenarioSchema(t).Validate(inst)
}

// load writes data to a file and loads it as the CLI does.
func load(t *testing.T, data []byte) error {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "scenario.json")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	// Upload paths must name files next to the scenario (the documents use a.txt, f0.txt…).
	for _, name := range append([]string{"a.txt"}, strings.Split(strings.Trim(manyFiles(33), `"`), `","`)...) {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	_, err := scenario.Load(path)
	return err
}

func TestSchemaCompilesAgainstMetaschema(t *testing.T) {
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	meta, err := c.Compile("https://json-schema.org/draft/2020-12/schema")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(scenario.SchemaJSON))
	if err != nil {
		t.Fatalf("scenario/schema.json is not JSON: %v", err)
	}
	if err := meta.Validate(doc); err != nil {
		t.Fatalf("scenario/schema.json is not a valid draft 2020-12 schema: %v", err)
	}
	m := doc.(map[string]any)
	if m["$schema"] != "https://json-schema.org/draft/2020-12/schema" || m["$id"] != schemaID || m["title"] == "" {
		t.Errorf("$schema, $id or title: %v %v %v", m["$schema"], m["$id"], m["title"])
	}
	scenarioSchema(t)
}

// TestSchemaExistsOnce: docs/ serves the schema itself (a symbolic link), not a copy.
func TestSchemaExistsOnce(t *testing.T) {
	target, err := os.Readlink(filepath.Join("..", "docs", "scenario.schema.json"))
	if err != nil || target != "../scenario/schema.json" {
		t.Fatalf("docs/scenario.schema.json must be a link to ../scenario/schema.json: %q, %v (fix: ln -sf ../scenario/schema.json docs/scenario.schema.json)", target, err)
	}
	docs, err := os.ReadFile(filepath.Join("..", "docs", "scenario.schema.json"))
	if err != nil || !bytes.Equal(docs, scenario.SchemaJSON) {
		t.Fatalf("docs/scenario.schema.json does not read as scenario/schema.json: %v", err)
	}
}

// TestSchemaOpEnumMatchesTable: the schema's op list is the operation table's InFiles rows
// plus step, and every one of them has its request shape in the schema.
func TestSchemaOpEnumMatchesTable(t *testing.T) {
	var doc struct {
		Defs map[string]struct {
			// A property may be false (not allowed), so each is decoded on its own.
			Properties map[string]json.RawMessage `json:"properties"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(scenario.SchemaJSON, &doc); err != nil {
		t.Fatal(err)
	}
	var opProp struct {
		Enum []string `json:"enum"`
	}
	if err := json.Unmarshal(doc.Defs["operation"].Properties["op"], &opProp); err != nil {
		t.Fatal(err)
	}
	enum := opProp.Enum
	want := []string{scenario.OpStep}
	for _, s := range transport.Ops() {
		if s.InFiles {
			want = append(want, s.Name)
		}
	}
	slices.Sort(enum)
	slices.Sort(want)
	if !slices.Equal(enum, want) {
		t.Fatalf("schema op enum %v; the operation table says %v (add the op to scenario/schema.json: the enum and an if/then for its request)", enum, want)
	}
	for _, op := range want {
		shape := regexp.MustCompile(`"op": \{"(const": "` + op + `"|enum": \[[^\]]*"` + op + `")`)
		if !shape.Match(scenario.SchemaJSON) {
			t.Errorf("op %s has no request shape (an if/then on op) in the schema", op)
		}
	}
}

func TestSchemaAcceptsShippedScenarios(t *testing.T) {
	root := filepath.Join("..", "scenarios")
	n := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".json") {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		// Only scenario files: a JSON object with "version" and "operations", not a fragment.
		var probe map[string]json.RawMessage
		if json.Unmarshal(data, &probe) != nil || probe["version"] == nil || probe["operations"] == nil || scenario.IsFragment(data) {
			t.Logf("%s: not a scenario file, skipped", path)
			return nil
		}
		n++
		if err := schemaErr(t, data); err != nil {
			t.Errorf("%s: schema refuses a shipped scenario: %v", path, err)
		}
		if _, err := scenario.Load(path); err != nil {
			t.Errorf("%s: %v", path, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 5 { // scenarios/quickstart (3) and scenarios/examples (2)
		t.Fatalf("found %d scenario files under scenarios/, want at least 5", n)
	}
}

// doc is a scenario with a fixture and the given operations.
func doc(ops string) string {
	return `{"version":1,"id":"s","fixture":{"baseUrl":"http://127.0.0.1:4310"},"operations":[` + ops + `]}`
}

// top is a scenario with extra top-level members and one read.
func top(members string) string {
	return `{"version":1,"id":"s",` + members + `,"operations":[{"op":"read"}]}`
}

func manyOps(n int) string {
	ops := make([]string, n)
	for i := range ops {
		ops[i] = `{"op":"read"}`
	}
	return strings.Join(ops, ",")
}

func manyRules(n int) string {
	rules := make([]string, n)
	for i := range rules {
		rules[i] = `{"role":"textbox"}`
	}
	return strings.Join(rules, ",")
}

func manyTags(n int) string {
	tags := make([]string, n)
	for i := range tags {
		tags[i] = `"@t` + strconv.Itoa(i) + `"`
	}
	return strings.Join(tags, ",")
}

func manyFiles(n int) string {
	files := make([]string, n)
	for i := range files {
		files[i] = `"f` + strconv.Itoa(i) + `.txt"`
	}
	return strings.Join(files, ",")
}

const (
	managed = `"fixture":{"baseUrl":"http://127.0.0.1:4310","server":{"mode":"managed","start":{"command":"fastbrowser","args":["fixture","serve"]},"readiness":{"url":"http://127.0.0.1:4310/health"}}}`
	click   = `"action":"click","target":{"role":"button","name":"Go"}`
	goodTab = `{"source":"operation","operation":{"id":"tabs"},"result":"listedTab","index":0}`
)

func TestSchemaAndGoRejectInvalid(t *testing.T) {
	cases := []struct{ name, doc string }{
		{"unknown top-level field", top(`"extra":1`)},
		{"id of dots", `{"version":1,"id":"..","operations":[{"op":"read"}]}`},
		{"secretText in a file", doc(`{"op":"act","request":{"action":"type","target":{"ref":"e1"},"text":"x","secretText":true}}`)},
		{"$schema not a string", `{"$schema":1,"version":1,"id":"s","operations":[{"op":"read"}]}`},
		{"case-variant key", top(`"Description":"x"`)},
		{"description null", top(`"description":null`)},
		{"unknown field in a request", doc(`{"op":"navigate","request":{"url":"/","selector":"#a"}}`)},
		{"unknown field in an operation", doc(`{"op":"read","wait":"bounded"}`)},
		{"unknown op", doc(`{"op":"evaluate"}`)},
		{"captureEvidence in a file", doc(`{"op":"captureEvidence","request":{"runId":"r","operation":"observe"}}`)},
		{"screenshot budget over the ceiling", doc(`{"op":"screenshot","request":{"budgetMs":60001}}`)},
		{"screenshot with an unknown field", doc(`{"op":"screenshot","request":{"fullPage":true}}`)},
		{"screenshot with an empty redaction rule", doc(`{"op":"screenshot","request":{"redaction":[{}]}}`)},
		{"viewport too narrow", top(`"viewport":{"width":99,"height":600}`)},
		{"33 tags", top(`"tags":[` + manyTags(33) + `]`)},
		{"an empty tag", top(`"tags":[""]`)},
		{"a tag of 65 characters", top(`"tags":["` + strings.Repeat("é", 65) + `"]`)},
		{"a tag listed twice", top(`"tags":["@smoke","@smoke"]`)},
		{"a tag not a string", top(`"tags":[1]`)},
		{"status assertion of a non-status", doc(`{"op":"assert","request":{"kind":"status","value":"OK"}}`)},
		{"status assertion out of range", doc(`{"op":"assert","request":{"kind":"status","value":"600"}}`)},
		{"status assertion with a leading zero", doc(`{"op":"assert","request":{"kind":"status","value":"099"}}`)},
		{"unknown page class", doc(`{"op":"assert","request":{"kind":"pageClass","value":"captcha"}}`)},
		{"assert visible with a value", doc(`{"op":"assert","request":{"kind":"visible","target":{"ref":"e1"},"value":"x"}}`)},
		{"assert attribute without a name", doc(`{"op":"assert","request":{"kind":"attribute","target":{"ref":"e1"}}}`)},
		{"assert status with a regex", doc(`{"op":"assert","request":{"kind":"status","value":{"regex":"^2"}}}`)},
		{"assert values with a non-list kind", doc(`{"op":"assert","request":{"kind":"focused","target":{"ref":"e1"},"values":["a"]}}`)},
		{"assert text with value and values", doc(`{"op":"assert","request":{"kind":"text","target":{"ref":"e1"},"value":"a","values":["a"]}}`)},
		{"assert storage without storage", doc(`{"op":"assert","request":{"kind":"storage"}}`)},
		{"wait for nothing", doc(`{"op":"wait","request":{}}`)},
		{"wait without a request", doc(`{"op":"wait"}`)},
		{"wait for a load state and a url", doc(`{"op":"wait","request":{"loadState":"load","url":"**/x"}}`)},
		{"wait for a url and a time", doc(`{"op":"wait","request":{"url":{"regex":"x"},"durationMs":5}}`)},
		{"wait for an unknown load state", doc(`{"op":"wait","request":{"loadState":"commit"}}`)},
		{"wait with timeoutMs and durationMs", doc(`{"op":"wait","request":{"durationMs":5,"timeoutMs":5}}`)},
		{"wait over the ceiling", doc(`{"op":"wait","request":{"durationMs":120001}}`)},
		{"wait timeoutMs over the ceiling", doc(`{"op":"wait","request":{"loadState":"load","timeoutMs":120001}}`)},
		{"assert storage in a cookie area", doc(`{"op":"assert","request":{"kind":"storage","storage":{"area":"cookie","key":"k"}}}`)},
		{"assert storage with value and jsonContains", doc(`{"op":"assert","request":{"kind":"storage","storage":{"area":"local","key":"k"},"value":"v","jsonContains":1}}`)},
		{"assert regex flag g", doc(`{"op":"assert","request":{"kind":"title","value":{"regex":"a","flags":"g"}}}`)},
		{"assert ignoreCase on title", doc(`{"op":"assert","request":{"kind":"title","value":"a","ignoreCase":true}}`)},
		{"assert timeoutMs over the expect ceiling", doc(`{"op":"assert","request":{"kind":"title","value":"x","timeoutMs":120001}}`)},
		{"assert not as a string", doc(`{"op":"assert","request":{"kind":"title","value":"x","not":"yes"}}`)},
		{"value assertion without a target", doc(`{"op":"assert","request":{"kind":"value","value":"x"}}`)},
		{"checked assertion of maybe", doc(`{"op":"assert","request":{"kind":"checked","value":"maybe","target":{"role":"checkbox","name":"A"}}}`)},
		{"count assertion by ref", doc(`{"op":"assert","request":{"kind":"count","value":"1","target":{"ref":"e1"}}}`)},
		{"count assertion of a non-count", doc(`{"op":"assert","request":{"kind":"count","value":"01","target":{"role":"button","name":"A"}}}`)},
		{"count assertion over the bound", doc(`{"op":"assert","request":{"kind":"count","value":"10001","target":{"role":"button","name":"A"}}}`)},
		{"title assertion with a target", doc(`{"op":"assert","request":{"kind":"title","value":"x","target":{"role":"button","name":"A"}}}`)},
		{"value assertion with a cell", doc(`{"op":"assert","request":{"kind":"value","value":"x","target":{"role":"textbox","name":"A"},"cell":{"row":"a","column":"b"}}}`)},
		{"textContains with a target and a cell", doc(`{"op":"assert","request":{"kind":"textContains","value":"x","target":{"role":"region","name":"A"},"cell":{"row":"a","column":"b"}}}`)},
		{"cell without a column", doc(`{"op":"assert","request":{"kind":"textContains","value":"x","cell":{"row":"a"}}}`)},
		{"cell with a blank row", doc(`{"op":"assert","request":{"kind":"textContains","value":"x","cell":{"row":" ","column":"b"}}}`)},
		{"cell with an unknown field", doc(`{"op":"assert","request":{"kind":"textContains","value":"x","cell":{"row":"a","column":"b","index":1}}}`)},
		{"viewport too tall", top(`"viewport":{"width":800,"height":8193}`)},
		{"viewport without a height", top(`"viewport":{"width":800}`)},
		{"viewport with an unknown field", top(`"viewport":{"width":800,"height":600,"scale":2}`)},
		{"missing version", `{"id":"s","operations":[{"op":"read"}]}`},
		{"version 2", `{"version":2,"id":"s","operations":[{"op":"read"}]}`},
		{"version as a string", `{"version":"1","id":"s","operations":[{"op":"read"}]}`},
		{"missing id", `{"version":1,"operations":[{"op":"read"}]}`},
		{"bad id", `{"version":1,"id":"no spaces","operations":[{"op":"read"}]}`},
		{"id too long", `{"version":1,"id":"` + strings.Repeat("a", 65) + `","operations":[{"op":"read"}]}`},
		{"bad operation id", doc(`{"id":"a/b","op":"read"}`)},
		{"budgets timeoutMs over the ceiling", top(`"budgets":{"timeoutMs":120001}`)},
		{"budgets timeoutMs zero", top(`"budgets":{"timeoutMs":0}`)},
		{"operation timeoutMs over the ceiling", doc(`{"op":"read","timeoutMs":120001}`)},
		{"operation timeoutMs negative", doc(`{"op":"act","timeoutMs":-1,"request":{"action":"click","target":{"ref":"e1"}}}`)},
		{"operation timeoutMs as a string", doc(`{"op":"read","timeoutMs":"15000"}`)},
		{"budgets without timeoutMs", top(`"budgets":{}`)},
		{"missing operations", `{"version":1,"id":"s"}`},
		{"empty operations", `{"version":1,"id":"s","operations":[]}`},
		{"1001 operations", `{"version":1,"id":"s","operations":[` + manyOps(1001) + `]}`},
		{"navigate without request", doc(`{"op":"navigate"}`)},
		{"request null", doc(`{"op":"read","request":null}`)},
		{"act without action", doc(`{"op":"act","request":{"target":{"ref":"e1"}}}`)},
		{"act bad action", doc(`{"op":"act","request":{"action":"tap","target":{"ref":"e1"}}}`)},
		{"act without target", doc(`{"op":"act","request":{"action":"click"}}`)},
		{"act target ref and role", doc(`{"op":"act","request":{"action":"click","target":{"ref":"e1","role":"button"}}}`)},
		{"act target bad ref", doc(`{"op":"act","request":{"action":"click","target":{"ref":"x1"}}}`)},
		{"act target with two kinds", doc(`{"op":"act","request":{"action":"click","target":{"role":"button","text":"Go"}}}`)},
		{"act type without text", doc(`{"op":"act","request":{"action":"type","target":{"ref":"e1"}}}`)},
		{"act click with text", doc(`{"op":"act","request":{` + click + `,"text":"x"}}`)},
		{"act click with empty files", doc(`{"op":"act","request":{` + click + `,"files":[]}}`)},
		{"act select without option", doc(`{"op":"act","request":{"action":"select","target":{"ref":"e1"},"option":""}}`)},
		{"act press unknown key", doc(`{"op":"act","request":{"action":"press","target":{"ref":"e1"},"key":"F13"}}`)},
		{"act press control character", doc(`{"op":"act","request":{"action":"press","target":{"ref":"e1"},"key":"\u0007"}}`)},
		{"act upload 33 files", doc(`{"op":"act","request":{"action":"upload","target":{"ref":"e1"},"files":[` + manyFiles(33) + `]}}`)},
		{"text env empty", doc(`{"op":"act","request":{"action":"type","target":{"ref":"e1"},"text":{"env":""}}}`)},
		{"text env bad name", doc(`{"op":"act","request":{"action":"type","target":{"ref":"e1"},"text":{"env":"1BAD"}}}`)},
		{"task maxTurns 9", doc(`{"op":"task","request":{"goal":"g","maxTurns":9,"postcondition":{"kind":"text","value":"ok"}}}`)},
		{"task without postcondition", doc(`{"op":"task","request":{"goal":"g","maxActions":2}}`)},
		{"task without goal", doc(`{"op":"task","request":{"postcondition":{"kind":"text","value":"ok"}}}`)},
		{"task without request", doc(`{"op":"task"}`)},
		{"task timeoutMs over the ceiling", doc(`{"op":"task","request":{"goal":"g","maxActions":1,"timeoutMs":30001}}`)},
		{"task allow scroll", doc(`{"op":"task","request":{"goal":"g","maxActions":1,"allow":{"scroll":true}}}`)},
		{"task allow navigation as a string", doc(`{"op":"task","request":{"goal":"g","maxActions":1,"allow":{"navigation":"yes"}}}`)},
		{"task allow as a list", doc(`{"op":"task","request":{"goal":"g","maxActions":1,"allow":["navigation"]}}`)},
		{"extract without schema", doc(`{"op":"extract","request":{}}`)},
		{"extract schema an array", doc(`{"op":"extract","request":{"schema":[]}}`)},
		{"extract scope not a ref", doc(`{"op":"extract","request":{"schema":{},"scope":"#main"}}`)},
		{"model of an unknown provider", top(`"model":{"provider":"ollama","model":"m"}`)},
		{"model with the key itself", top(`"model":{"provider":"openai","model":"m","apiKey":"k"}`)},
		{"model baseUrl with credentials", top(`"model":{"provider":"openai","model":"m","baseUrl":"http://u:p@a.test/v1"}`)},
		{"model apiKeyEnv not a name", top(`"model":{"provider":"openai","model":"m","apiKeyEnv":"A-B"}`)},
		{"model without a name", top(`"model":{"provider":"openai"}`)},
		{"text env extra member", doc(`{"op":"act","request":{"action":"type","target":{"ref":"e1"},"text":{"env":"X","extra":1}}}`)},
		{"act dialog maybe", doc(`{"op":"act","request":{` + click + `,"dialog":"maybe"}}`)},
		{"act dialog null", doc(`{"op":"act","request":{` + click + `,"dialog":null}}`)},
		{"act promptText without dialog", doc(`{"op":"act","request":{` + click + `,"promptText":"x"}}`)},
		{"act promptText with dismiss", doc(`{"op":"act","request":{` + click + `,"dialog":"dismiss","promptText":"x"}}`)},
		{"act promptText too long", doc(`{"op":"act","request":{` + click + `,"dialog":"accept","promptText":"` + strings.Repeat("p", 1001) + `"}}`)},
		{"act promptText env", doc(`{"op":"act","request":{` + click + `,"dialog":"accept","promptText":{"env":"X"}}}`)},
		{"step dialog maybe", doc(`{"op":"step","step":{"instruction":"Go","action":"click","dialog":"maybe","postcondition":{"kind":"text","value":"x"}}}`)},
		{"step promptText without dialog", doc(`{"op":"step","step":{"instruction":"Go","action":"click","promptText":"x","postcondition":{"kind":"text","value":"x"}}}`)},
		{"text number", doc(`{"op":"act","request":{"action":"type","target":{"ref":"e1"},"text":5}}`)},
		{"assert bad kind", doc(`{"op":"assert","request":{"kind":"html","value":"x"}}`)},
		{"when bad kind", doc(`{"op":"read","when":{"kind":"html","value":"x"}}`)},
		{"when without value", doc(`{"op":"read","when":{"kind":"title"}}`)},
		{"when with a tab", doc(`{"op":"read","when":{"tab":{"source":"initial","target":"selected"},"kind":"title","value":"x"}}`)},
		{"when with wait", doc(`{"op":"read","when":{"kind":"title","value":"x","wait":"none"}}`)},
		{"when with timeoutMs", doc(`{"op":"read","when":{"kind":"title","value":"x","timeoutMs":0}}`)},
		{"when with an unknown field", doc(`{"op":"read","when":{"kind":"title","value":"x","extra":1}}`)},
		{"when checked of maybe", doc(`{"op":"read","when":{"kind":"checked","value":"maybe","target":{"role":"checkbox","name":"A"}}}`)},
		{"when value without a target", doc(`{"op":"read","when":{"kind":"value","value":"x"}}`)},
		{"when title with a target", doc(`{"op":"read","when":{"kind":"title","value":"x","target":{"role":"button","name":"A"}}}`)},
		{"when as an empty string", doc(`{"op":"read","when":""}`)},
		{"when in words too long", doc(`{"op":"read","when":"` + strings.Repeat("w", 501) + `"}`)},
		{"when as a number", doc(`{"op":"read","when":5}`)},
		{"assert bad wait", doc(`{"op":"assert","request":{"kind":"title","value":"x","wait":"forever"}}`)},
		{"assert empty value", doc(`{"op":"assert","request":{"kind":"textContains","value":""}}`)},
		{"assert without value", doc(`{"op":"assert","request":{"kind":"title"}}`)},
		{"assert value too long", doc(`{"op":"assert","request":{"kind":"title","value":"` + strings.Repeat("x", 2001) + `"}}`)},
		{"listTabs select index 32", doc(`{"op":"listTabs","request":{"select":{"kind":"index","index":32}}}`)},
		{"listTabs select index without index", doc(`{"op":"listTabs","request":{"select":{"kind":"index"}}}`)},
		{"listTabs select origin with index", doc(`{"op":"listTabs","request":{"select":{"kind":"origin","origin":"http://a","index":0}}}`)},
		{"listTabs select bad kind", doc(`{"op":"listTabs","request":{"select":{"kind":"title"}}}`)},
		{"observe maxNodes over the ceiling", doc(`{"op":"observe","request":{"maxNodes":5001}}`)},
		{"observe maxDepth negative", doc(`{"op":"observe","request":{"maxDepth":-1}}`)},
		{"observe maxTextChars over the ceiling", doc(`{"op":"observe","request":{"maxTextChars":100001}}`)},
		{"selectTab without tab", doc(`{"op":"selectTab","request":{}}`)},
		{"selectTab tab null", doc(`{"op":"selectTab","request":{"tab":null}}`)},
		{"tab reference bad source", doc(`{"op":"read","request":{"tab":{"source":"popup"}}}`)},
		{"tab reference without source", doc(`{"op":"read","request":{"tab":{"target":"selected"}}}`)},
		{"initial tab without target", doc(`{"op":"read","request":{"tab":{"source":"initial"}}}`)},
		{"initial tab with result", doc(`{"op":"read","request":{"tab":{"source":"initial","target":"selected","result":"popup"}}}`)},
		{"tab reference bad result", doc(`{"id":"tabs","op":"listTabs"},{"op":"read","request":{"tab":{"source":"operation","operation":{"id":"tabs"},"result":"tab"}}}`)},
		{"tab reference index 32", doc(`{"id":"tabs","op":"listTabs"},{"op":"read","request":{"tab":{"source":"operation","operation":{"id":"tabs"},"result":"listedTab","index":32}}}`)},
		{"tab reference index without listedTab", doc(`{"id":"pick","op":"selectTab","request":{"tab":{"source":"initial","target":"selected"}}},{"op":"read","request":{"tab":{"source":"operation","operation":{"id":"pick"},"result":"selectedTab","index":0}}}`)},
		{"tab reference with target", doc(`{"id":"tabs","op":"listTabs"},{"op":"read","request":{"tab":{"source":"operation","target":"selected","operation":{"id":"tabs"},"result":"listedTab"}}}`)},
		{"operation reference with id and index", doc(`{"id":"tabs","op":"listTabs"},{"op":"read","request":{"tab":{"source":"operation","operation":{"id":"tabs","index":0},"result":"listedTab"}}}`)},
		{"operation reference empty", doc(`{"id":"tabs","op":"listTabs"},{"op":"read","request":{"tab":{"source":"operation","operation":{},"result":"listedTab"}}}`)},
		{"operation reference negative index", doc(`{"id":"tabs","op":"listTabs"},{"op":"read","request":{"tab":{"source":"operation","operation":{"index":-1},"result":"listedTab"}}}`)},
		{"redaction rules empty", top(`"redaction":{"rules":[]}`)},
		{"redaction rules null", top(`"redaction":{"rules":null}`)},
		{"redaction rule {}", top(`"redaction":{"rules":[{}]}`)},
		{"redaction rule with only empty fields", top(`"redaction":{"rules":[{"role":"","name":""}]}`)},
		{"redaction rule unknown field", top(`"redaction":{"rules":[{"role":"textbox","selector":"#a"}]}`)},
		{"redaction 33 rules", top(`"redaction":{"rules":[` + manyRules(33) + `]}`)},
		{"redaction rule field too long", top(`"redaction":{"rules":[{"name":"` + strings.Repeat("n", 201) + `"}]}`)},
		{"server mode other", top(`"fixture":{"baseUrl":"http://a.test","server":{"mode":"other","readiness":{"url":"http://a.test/"}}}`)},
		{"server without mode", top(`"fixture":{"baseUrl":"http://a.test","server":{"readiness":{"url":"http://a.test/"}}}`)},
		{"managed without start", top(`"fixture":{"baseUrl":"http://a.test","server":{"mode":"managed","readiness":{"url":"http://a.test/"}}}`)},
		{"managed start null", top(`"fixture":{"baseUrl":"http://a.test","server":{"mode":"managed","start":null,"readiness":{"url":"http://a.test/"}}}`)},
		{"external with start", top(`"fixture":{"baseUrl":"http://a.test","server":{"mode":"external","start":{"command":"x"},"readiness":{"url":"http://a.test/"}}}`)},
		{"external with reuseExisting", top(`"fixture":{"baseUrl":"http://a.test","server":{"mode":"external","reuseExisting":true,"readiness":{"url":"http://a.test/"}}}`)},
		{"readiness missing url", top(`"fixture":{"baseUrl":"http://a.test","server":{"mode":"external","readiness":{}}}`)},
		{"readiness missing", top(`"fixture":{"baseUrl":"http://a.test","server":{"mode":"external"}}`)},
		{"readiness timeoutMs over the ceiling", top(`"fixture":{"baseUrl":"http://a.test","server":{"mode":"external","readiness":{"url":"http://a.test/","timeoutMs":10001}}}`)},
		{"readiness expectedStatus 600", top(`"fixture":{"baseUrl":"http://a.test","server":{"mode":"external","readiness":{"url":"http://a.test/","expectedStatus":600}}}`)},
		{"readiness expectedStatus 99", top(`"fixture":{"baseUrl":"http://a.test","server":{"mode":"external","readiness":{"url":"http://a.test/","expectedStatus":99}}}`)},
		{"readiness url not http", top(`"fixture":{"baseUrl":"http://a.test","server":{"mode":"external","readiness":{"url":"file:///health"}}}`)},
		{"start with timeoutMs", top(`"fixture":{"baseUrl":"http://a.test","server":{"mode":"managed","start":{"command":"x","timeoutMs":5000},"readiness":{"url":"http://a.test/"}}}`)},
		{"start empty command", top(`"fixture":{"baseUrl":"http://a.test","server":{"mode":"managed","start":{"command":""},"readiness":{"url":"http://a.test/"}}}`)},
		{"start NUL in an argument", top(`"fixture":{"baseUrl":"http://a.test","server":{"mode":"managed","start":{"command":"x","args":["a\u0000b"]},"readiness":{"url":"http://a.test/"}}}`)},
		{"fixture without baseUrl", top(`"fixture":{}`)},
		{"baseUrl relative", top(`"fixture":{"baseUrl":"/app"}`)},
		{"baseUrl with credentials", top(`"fixture":{"baseUrl":"http://u:p@a.test"}`)},
		{"baseUrl ftp", top(`"fixture":{"baseUrl":"ftp://a.test"}`)},
		{"baseUrl without host", top(`"fixture":{"baseUrl":"http:///app"}`)},
		{"hooks timeoutMs over the ceiling", top(`"hooks":{"setup":{"command":"true","timeoutMs":120001}}`)},
		{"hooks unknown hook", top(`"hooks":{"teardown":{"command":"true"}}`)},
		{"hooks bad env name", top(`"hooks":{"setup":{"command":"true","env":{"1BAD":"x"}}}`)},
		{"hooks env value number", top(`"hooks":{"setup":{"command":"true","env":{"A":5}}}`)},
		{"hooks env reference extra member", top(`"hooks":{"setup":{"command":"true","env":{"A":{"env":"B","x":1}}}}`)},
		{"egress subresources maybe", top(`"egress":{"subresources":"maybe"}`)},
		{"egress subresources empty", top(`"egress":{"subresources":""}`)},
		{"egress serviceWorkers empty", top(`"egress":{"serviceWorkers":""}`)},
		{"egress webrtc empty", top(`"egress":{"webrtc":""}`)},
		{"assert wait empty", doc(`{"op":"assert","request":{"kind":"url","value":"/x","wait":""}}`)},
		{"egress serviceWorkers on", top(`"egress":{"serviceWorkers":"on"}`)},
		{"egress webrtc udp", top(`"egress":{"webrtc":"udp"}`)},
		{"egress webRTC spelled otherwise", top(`"egress":{"webRTC":"allow"}`)},
		{"egress unknown field", top(`"egress":{"navigations":"report"}`)},
		{"allowedOrigins empty", top(`"allowedOrigins":[]`)},
		{"allowedOrigins star and more", top(`"allowedOrigins":["*","http://a.test"]`)},
		{"allowedOrigins with a path", top(`"allowedOrigins":["http://a.test/app"]`)},
		{"allowedOrigins with a query", top(`"allowedOrigins":["http://a.test?"]`)},
		{"allowedOrigins wildcard host", top(`"allowedOrigins":["http://*.a.test"]`)},
		{"allowedOrigins not http", top(`"allowedOrigins":["ws://a.test"]`)},
		{"narrowOriginPolicy empty origins", doc(`{"op":"narrowOriginPolicy","request":{"origins":[]}}`)},
		{"narrowOriginPolicy without request", doc(`{"op":"narrowOriginPolicy"}`)},
		{"context on narrowOriginPolicy", doc(`{"id":"n","op":"narrowOriginPolicy","request":{"origins":["http://127.0.0.1:4310"]}},{"op":"narrowOriginPolicy","request":{"origins":["http://127.0.0.1:4310"]},"context":{"operation":{"id":"n"}}}`)},
		{"context without operation", doc(`{"id":"n","op":"narrowOriginPolicy","request":{"origins":["http://127.0.0.1:4310"]}},{"op":"read","context":{}}`)},
		{"step without postcondition", doc(`{"op":"step","step":{"instruction":"Go","action":"click"}}`)},
		{"step without step", doc(`{"op":"step"}`)},
		{"step null", doc(`{"op":"step","step":null}`)},
		{"step with request", doc(`{"op":"step","request":{},"step":{"instruction":"Go","action":"click","postcondition":{"kind":"text","value":"x"}}}`)},
		{"step on another op", doc(`{"op":"read","step":{"instruction":"Go","action":"click","postcondition":{"kind":"text","value":"x"}}}`)},
		{"step with context", doc(`{"id":"n","op":"narrowOriginPolicy","request":{"origins":["http://127.0.0.1:4310"]}},{"op":"step","context":{"operation":{"id":"n"}},"step":{"instruction":"Go","action":"click","postcondition":{"kind":"text","value":"x"}}}`)},
		{"step upload", doc(`{"op":"step","step":{"instruction":"Go","action":"upload","postcondition":{"kind":"text","value":"x"}}}`)},
		{"step blank instruction", doc(`{"op":"step","step":{"instruction":"  ","action":"click","postcondition":{"kind":"text","value":"x"}}}`)},
		{"step bad postcondition kind", doc(`{"op":"step","step":{"instruction":"Go","action":"click","postcondition":{"kind":"visible","value":"x"}}}`)},
		{"step empty text postcondition", doc(`{"op":"step","step":{"instruction":"Go","action":"click","postcondition":{"kind":"text","value":""}}}`)},
		{"step type without text", doc(`{"op":"step","step":{"instruction":"Name","action":"type","postcondition":{"kind":"text","value":"x"}}}`)},
		{"step unknown field", doc(`{"op":"step","step":{"instruction":"Go","action":"click","files":["a"],"postcondition":{"kind":"text","value":"x"}}}`)},
	}
	if len(cases) < 25 {
		t.Fatalf("%d cases, want at least 25", len(cases))
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			data := []byte(c.doc)
			if !json.Valid(data) {
				t.Fatalf("test document is not JSON: %s", c.doc)
			}
			if err := load(t, data); err == nil {
				t.Errorf("scenario.Load accepts it: %s", c.doc)
			}
			if err := schemaErr(t, data); err == nil {
				t.Errorf("the schema accepts it: %s", c.doc)
			}
		})
	}
}

// allOps uses every op, a step, narrowing by id and index, tab references by id and index,
// env text, redaction and hooks with env references.
const allOps = `{
  "version": 1,
  "id": "every-op",
  "description": "every op once",
  "fixture": {
    "baseUrl": "http://127.0.0.1:4310/app/",
    "server": {
      "mode": "managed",
      "start": {"command": "fastbrowser", "args": ["fixture", "serve"], "cwd": ".", "env": {"PORT": "4310", "TOKEN": {"env": "HOST_TOKEN"}}},
      "readiness": {"url": "http://127.0.0.1:4310/health", "expectedStatus": 204, "timeoutMs": 10000},
      "reuseExisting": true
    }
  },
  "hooks": {
    "setup": {"command": "./seed.sh", "args": ["--fresh"], "env": {"DB_URL": {"env": "DATABASE_URL"}}, "timeoutMs": 120000},
    "reset": {"command": "true"},
    "cleanup": {"command": "true", "timeoutMs": 1}
  },
  "budgets": {"timeoutMs": 120000},
  "allowedOrigins": ["http://127.0.0.1:4310", "https://cdn.example.test"],
  "egress": {"subresources": "report", "serviceWorkers": "allow", "webrtc": "allow"},
  "redaction": {"rules": [{"role": "textbox", "name": "Card number"}, {"label": "CVV"}]},
  "operations": [
    {"id": "home", "op": "navigate", "request": {"url": "form?x=1"}},
    {"id": "reload", "op": "reload", "when": {"kind": "url", "value": "form?x=1", "not": true}},
    {"id": "look", "op": "observe", "request": {"maxNodes": 5000, "maxDepth": 64, "maxTextChars": 100000}},
    {"id": "narrow", "op": "narrowOriginPolicy", "request": {"origins": ["http://127.0.0.1:4310"]}},
    {"id": "read", "op": "read", "context": {"operation": {"id": "narrow"}}},
    {"op": "assert", "request": {"kind": "titleContains", "value": "Sign", "wait": "none"}, "context": {"operation": {"index": 3}}},
    {"id": "user", "op": "act", "request": {"action": "type", "target": {"role": "textbox", "name": "Username", "exact": false}, "text": "ada"}},
    {"id": "pass", "op": "act", "request": {"action": "type", "target": {"ref": "e12"}, "text": {"env": "FB_PASSWORD"}}},
    {"op": "act", "request": {"action": "select", "target": {"role": "combobox", "name": "Country"}, "option": "Denmark"}},
    {"op": "act", "request": {"action": "check", "target": {"ref": "e3"}}, "when": {"kind": "checked", "value": "false", "target": {"role": "checkbox", "name": "Terms"}}},
    {"op": "act", "request": {"action": "uncheck", "target": {"ref": "e3"}}},
    {"op": "act", "request": {"action": "press", "target": {"ref": "e3"}, "key": "Enter"}},
    {"op": "act", "request": {"action": "press", "target": {"ref": "e3"}, "key": "a"}},
    {"op": "act", "request": {"action": "upload", "target": {"role": "button", "name": "Attach"}, "files": ["a.txt"]}},
    {"id": "open", "op": "act", "request": {"action": "click", "target": {"role": "button", "name": "Open popup"}}},
    {"id": "popup", "op": "waitPopup", "request": {"opener": {"source": "initial", "target": "selected"}}},
    {"id": "tabs", "op": "listTabs", "request": {"select": {"kind": "origin", "origin": "http://127.0.0.1:4310"}}},
    {"id": "all", "op": "listTabs"},
    {"id": "pick", "op": "selectTab", "request": {"tab": {"source": "operation", "operation": {"id": "all"}, "result": "listedTab", "index": 31}}},
    {"op": "read", "request": {"tab": {"source": "operation", "operation": {"index": 18}, "result": "selectedTab"}}},
    {"op": "assert", "request": {"tab": {"source": "operation", "operation": {"id": "popup"}, "result": "popup"}, "kind": "title", "value": ""}},
    {"op": "step", "step": {"instruction": "Continue", "action": "click", "postcondition": {"kind": "url", "value": "done"}}, "when": {"kind": "textContains", "value": "Continue", "cell": {"table": {"role": "table", "name": "Steps"}, "row": "next", "column": "Action"}}},
    {"op": "step", "step": {"instruction": "Password", "action": "type", "target": {"ref": "e12"}, "text": {"env": "FB_PASSWORD"}, "postcondition": {"kind": "text", "value": "ok"}}},
    {"op": "step", "step": {"instruction": "Country", "action": "select", "option": "Denmark", "postcondition": {"kind": "title", "value": "Form"}}},
    {"op": "step", "step": {"instruction": "Search", "action": "press", "key": "Escape", "postcondition": {"kind": "origin", "value": "http://127.0.0.1:4310"}}},
    {"op": "wait", "request": {"url": "**/done", "timeoutMs": 5000}},
    {"id": "close", "op": "closeTab", "request": {"tab": {"source": "operation", "operation": {"id": "popup"}, "result": "popup"}}}
  ]
}`

func TestSchemaAndGoAcceptUnusualValid(t *testing.T) {
	cases := []struct{ name, doc string }{
		{"every op, step, narrowing, tab references, env text, redaction, hooks", allOps},
		{"minimal", `{"version":1,"id":"x","operations":[{"op":"read"}]}`},
		{"when null and when of every shape", doc(`{"op":"read","when":null},{"op":"act","request":{` + click + `},"when":{"kind":"count","value":"0","target":{"role":"button","name":"Go"},"not":false}},{"op":"read","when":{"kind":"title","value":""}},{"op":"navigate","request":{"url":"/"},"when":{"kind":"url","value":"/login","not":true}},{"op":"read","when":{"kind":"pageClass","value":"login"}},{"op":"read","when":"the cookie banner is shown"}`)},
		{"nulls where Go takes null as absent", `{"version":1,"id":"x","fixture":null,"hooks":null,"budgets":null,"allowedOrigins":null,"egress":null,"redaction":null,
			"operations":[{"op":"read","context":null,"request":{"tab":null}},{"op":"listTabs","request":{"select":null}},{"op":"waitPopup","request":{"opener":null}},
			{"op":"act","request":{"action":"click","target":{"ref":"e1","exact":null},"text":null,"files":null}},
			{"op":"read","request":{"tab":{"source":"initial","target":"selected","operation":null,"result":"","index":null}}}]}`},
		{"null command parts", top(`"hooks":{"setup":{"command":"true","args":null,"env":null},"reset":null,"cleanup":null}`)},
		{"empty strings Go takes as absent", top(`"description":""`)},
		{"$schema for an editor", `{"$schema":"./scenario.schema.json","version":1,"id":"s","operations":[{"op":"read"}]}`},
		{"empty operation id and act fields", doc(`{"id":"","op":"act","request":{"action":"click","target":{"ref":"e1","role":"","testId":""},"option":"","key":""}}`)},
		{"external server with zero values", top(`"fixture":{"baseUrl":"HTTPS://A.test:8443/x?y#z","server":{"mode":"external","start":null,"reuseExisting":false,"readiness":{"url":"http://a.test/h","expectedStatus":0,"timeoutMs":0}}}`)},
		{"managed start timeoutMs 0", top(`"fixture":{"baseUrl":"http://a.test","server":{"mode":"managed","start":{"command":"x","timeoutMs":0},"readiness":{"url":"http://a.test/"}}}`)},
		{"any origin", top(`"allowedOrigins":["*"]`)},
		{"origins with upper-case scheme and a slash", top(`"allowedOrigins":["HTTPS://B.test:443/","http://[::1]:8080"]`)},
		{"operation reference by index with empty id", doc(`{"op":"narrowOriginPolicy","request":{"origins":["http://127.0.0.1:4310"]}},{"op":"read","context":{"operation":{"id":"","index":0}}}`)},
		{"operation reference by id with null index", doc(`{"id":"n","op":"narrowOriginPolicy","request":{"origins":["http://127.0.0.1:4310"]}},{"op":"read","context":{"operation":{"id":"n","index":null}}}`)},
		{"listTabs select with null and empty extras", doc(`{"op":"listTabs","request":{"select":{"kind":"origin","origin":"http://a.test","index":null}}},{"op":"listTabs","request":{"select":{"kind":"index","index":31,"origin":""}}}`)},
		{"navigate to the base URL itself", doc(`{"op":"navigate","request":{"url":""}}`)},
		{"step url postcondition of the base URL", doc(`{"op":"step","step":{"instruction":"  Continue  ","action":"click","target":null,"text":null,"postcondition":{"kind":"url","value":""}}}`)},
		{"step with context null", doc(`{"op":"step","context":null,"step":{"instruction":"Go","action":"click","postcondition":{"kind":"text","value":"x"}}}`)},
		{"press a non-ASCII key", doc(`{"op":"act","request":{"action":"press","target":{"ref":"e1"},"key":"😀"}},{"op":"act","request":{"action":"press","target":{"ref":"e1"},"key":"é"}}`)},
		{"dialog answers", doc(`{"op":"act","request":{` + click + `,"dialog":"accept","promptText":"` + strings.Repeat("é", 1000) + `"}},{"op":"act","request":{` + click + `,"dialog":"dismiss","promptText":""}},{"op":"act","request":{` + click + `,"dialog":"","promptText":""}},{"op":"act","request":{` + click + `,"dialog":"accept"}},{"op":"step","step":{"instruction":"Go","action":"click","dialog":"accept","promptText":"Ada","postcondition":{"kind":"text","value":"x"}}}`)},
		{"operation timeoutMs 0 and the ceiling", doc(`{"op":"read","timeoutMs":0},{"op":"act","timeoutMs":120000,"request":{"action":"click","target":{"ref":"e1"}}},{"op":"step","timeoutMs":15000,"step":{"instruction":"Go","action":"click","postcondition":{"kind":"text","value":"x"}}}`)},
		{"1000 operations", `{"version":1,"id":"s","operations":[` + manyOps(1000) + `]}`},
		{"32 redaction rules", top(`"redaction":{"rules":[` + manyRules(32) + `]}`)},
		{"32 upload files", doc(`{"op":"act","request":{"action":"upload","target":{"ref":"e1"},"files":[` + manyFiles(32) + `]}}`)},
		{"screenshots", doc(`{"op":"screenshot"},{"op":"screenshot","request":{"tab":null,"redaction":[{"label":"Card"}],"budgetMs":0}},{"op":"screenshot","request":{"budgetMs":60000}}`)},
		{"viewports at the bounds and null", top(`"viewport":{"width":100,"height":8192}`)},
		{"viewport null", top(`"viewport":null`)},
		{"32 tags, one of 64 characters", top(`"tags":[` + manyTags(31) + `,"` + strings.Repeat("é", 64) + `"]`)},
		{"tags null", top(`"tags":null`)},
		{"task and extract", doc(`{"op":"task","request":{"goal":"sign in","postcondition":{"kind":"url","value":"/welcome"},"maxTurns":8,"maxActions":8,"timeoutMs":30000}},{"op":"task","request":{"goal":"click Save","maxActions":1,"postcondition":null,"tab":null}},{"op":"task","request":{"goal":"leave","maxActions":1,"allow":{"navigation":true,"dialogs":false}}},{"op":"task","request":{"goal":"stay","maxActions":1,"allow":null}},{"op":"extract","request":{"schema":{"type":"object"},"scope":"e12","timeoutMs":0}}`)},
		{"model of every field", top(`"model":{"provider":"openai","model":"llama3.1:8b","baseUrl":"HTTP://127.0.0.1:11434/v1","apiKeyEnv":"OPENAI_API_KEY"}`)},
		{"model null", top(`"model":null`)},
		{"variables and {var} in requests, steps and when", `{"version":1,"id":"x","fixture":{"baseUrl":"http://a.test"},"variables":{"FIELD":"Email","_n2":"x","URL":"/signup"},"operations":[` +
			`{"op":"navigate","request":{"url":{"var":"URL"}}},{"op":"act","request":{"action":"type","target":{"role":"textbox","name":{"var":"FIELD"}},"text":{"var":"FIELD"}},"when":{"kind":"textContains","value":{"var":"FIELD"}}},` +
			`{"op":"assert","request":{"kind":"textContains","value":{"var":"_n2"}}},{"op":"step","step":{"instruction":{"var":"FIELD"},"action":"click","postcondition":{"kind":"text","value":{"var":"FIELD"}}}}]}`},
		{"scoped assertions", doc(`{"op":"assert","request":{"kind":"textContains","value":"x","target":{"role":"region","name":"A"}}},{"op":"assert","request":{"kind":"textContains","value":"x","cell":{"table":{"role":"table","name":"Users"},"row":"alice","column":"Role"}}},{"op":"assert","request":{"kind":"value","value":"","target":{"ref":"e3"},"not":true}},{"op":"assert","request":{"kind":"checked","value":"false","target":{"role":"checkbox","name":"A","exact":false}}},{"op":"assert","request":{"kind":"count","value":"0","target":{"role":"button","name":"Delete"},"wait":"none"}},{"op":"assert","request":{"kind":"count","value":"10000","target":{"role":"row","name":"x","exact":false}}}`)},
		{"web-first assertions", doc(`{"op":"assert","request":{"kind":"visible","target":{"testId":"t"},"timeoutMs":30000}},{"op":"assert","request":{"kind":"hidden","target":{"text":"x"},"not":true,"value":null}},{"op":"assert","request":{"kind":"attribute","target":{"ref":"e1"},"name":"href","value":{"regex":"^/d","flags":"i"},"ignoreCase":true}},{"op":"assert","request":{"kind":"attribute","target":{"ref":"e1"},"name":"href"}},{"op":"assert","request":{"kind":"class","target":{"ref":"e1"},"value":""}},{"op":"assert","request":{"kind":"classContains","target":{"ref":"e1"},"value":"a b"}},{"op":"assert","request":{"kind":"text","target":{"ref":"e1"},"value":{"regex":"^buy milk$"},"useInnerText":true}},{"op":"assert","request":{"kind":"text","target":{"role":"listitem"},"values":["a",{"regex":"b","flags":"ms"}]}},{"op":"assert","request":{"kind":"values","target":{"label":"F"},"values":[]}},{"op":"assert","request":{"kind":"url","value":{"regex":"#a$"}}},{"op":"assert","request":{"kind":"storage","storage":{"area":"local","key":"k"},"jsonContains":{"a":[1]}}},{"op":"assert","request":{"kind":"storage","storage":{"area":"session","key":"k"},"value":""}}`)},
		{"waits", doc(`{"op":"wait","request":{"loadState":"networkidle","timeoutMs":120000}},{"op":"wait","request":{"url":"/orders"},"when":{"kind":"title","value":"Shop"}},{"op":"wait","request":{"url":"**/orders/*"}},{"op":"wait","request":{"url":{"regex":"/orders$","flags":"i"},"loadState":"","durationMs":0}},{"op":"wait","request":{"durationMs":120000,"timeoutMs":0,"url":null}}`)},
		{"status, pageClass, not and timeoutMs", doc(`{"op":"assert","request":{"kind":"status","value":"200"}},{"op":"assert","request":{"kind":"pageClass","value":"http_error","not":true,"timeoutMs":500}},{"op":"assert","request":{"kind":"textContains","value":"Loading","not":true,"wait":"bounded","timeoutMs":3000}}`)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			data := []byte(c.doc)
			if err := load(t, data); err != nil {
				t.Errorf("scenario.Load: %v", err)
			}
			if err := schemaErr(t, data); err != nil {
				t.Errorf("schema: %v", err)
			}
		})
	}
}

// TestSchemaNeverStricterThanGo mutates valid documents one value at a time (replace, delete,
// add a member) and requires the schema to accept every mutant the Go decoder accepts. The
// schema may be looser (it cannot see duplicate ids or forward references, for instance);
// those mutants are only counted.
func TestSchemaNeverStricterThanGo(t *testing.T) {
	pool := newMutationPool(t)
	var tried, looser int
	var examples []string
	for _, base := range []string{allOps, doc(`{"op":"observe"},{"op":"step","step":{"instruction":"Go","action":"press","key":"Tab","target":{"ref":"e1"},"postcondition":{"kind":"text","value":"x"}}}`),
		top(`"fixture":{"baseUrl":"http://a.test","server":{"mode":"external","readiness":{"url":"http://a.test/"}}}`)} {
		var root any
		dec := json.NewDecoder(strings.NewReader(base))
		dec.UseNumber()
		if err := dec.Decode(&root); err != nil {
			t.Fatal(err)
		}
		for _, m := range mutants(root, pool) {
			data, err := json.Marshal(m.doc)
			if err != nil {
				t.Fatal(err)
			}
			tried++
			_, goErr := scenario.Parse(data)
			if goErr != nil && !testing.Verbose() {
				continue // only -v counts where the schema is looser
			}
			sErr := schemaErr(t, data)
			switch {
			case goErr == nil && sErr != nil:
				t.Errorf("%s: Go accepts, the schema refuses: %s\n%v", m.what, data, sErr)
			case goErr != nil && sErr == nil:
				looser++
				if len(examples) < 20 {
					examples = append(examples, m.what+": "+goErr.Error())
				}
			}
		}
	}
	if testing.Verbose() {
		t.Logf("%d mutants; the schema is looser than Go on %d of them, e.g.\n  %s", tried, looser, strings.Join(examples, "\n  "))
	}
	if tried < 1000 {
		t.Fatalf("only %d mutants", tried)
	}
}

// mutationPool is the replacement values: every JSON kind for every value, the numbers
// around every bound for numbers, and every string the schema names in an enum or const
// for strings.
type mutationPool struct{ any, numbers, strings []any }

func newMutationPool(t *testing.T) mutationPool {
	p := mutationPool{any: []any{nil, true, "", "x", json.Number("0"), json.Number("1.5"), []any{}, []any{"x"}, map[string]any{},
		map[string]any{"env": "FB_SECRET"}, map[string]any{"id": "narrow"}, map[string]any{"index": json.Number("0")}}}
	for _, n := range []string{"-1", "1", "2", "18", "31", "32", "64", "65", "99", "100", "200", "599", "600", "999", "1000",
		"5000", "5001", "10000", "10001", "100000", "100001", "120000", "120001"} {
		p.numbers = append(p.numbers, json.Number(n))
	}
	var schema any
	if err := json.Unmarshal(scenario.SchemaJSON, &schema); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{" ": true, "e1": true, "/rel": true, "http://a.test": true, "http://127.0.0.1:4310": true, "*": true, "\u00e9": true}
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, e := range v {
				switch k {
				case "enum":
					for _, s := range e.([]any) {
						if s, ok := s.(string); ok {
							seen[s] = true
						}
					}
				case "const":
					if s, ok := e.(string); ok {
						seen[s] = true
					}
				}
				walk(e)
			}
		case []any:
			for _, e := range v {
				walk(e)
			}
		}
	}
	walk(schema)
	names := make([]string, 0, len(seen))
	for s := range seen {
		names = append(names, s)
	}
	sort.Strings(names)
	for _, s := range names {
		p.strings = append(p.strings, s)
	}
	return p
}

// values is what replaces v.
func (p mutationPool) values(v any) []any {
	switch v.(type) {
	case json.Number:
		return slices.Concat(p.any, p.numbers)
	case string:
		return slices.Concat(p.any, p.strings)
	}
	return p.any
}

type mutant struct {
	what string
	doc  any
}

// mutants returns copies of root with one change each: every value replaced by every pool
// value, every object member deleted, an unknown member added to every object, every array
// element dropped.
func mutants(root any, pool mutationPool) []mutant {
	var out []mutant
	var walk func(v any, path string, set func(any) any)
	walk = func(v any, path string, set func(any) any) {
		for _, p := range pool.values(v) {
			out = append(out, mutant{fmt.Sprintf("%s = %v", path, p), set(p)})
		}
		switch v := v.(type) {
		case map[string]any:
			keys := make([]string, 0, len(v))
			for k := range v {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				rest := without(v, k)
				out = append(out, mutant{path + "." + k + " deleted", set(rest)})
				walk(v[k], path+"."+k, func(nv any) any {
					c := without(v, "")
					c[k] = nv
					return set(c)
				})
			}
			extra := without(v, "")
			extra["unknownMember"] = json.Number("1")
			out = append(out, mutant{path + " + unknownMember", set(extra)})
		case []any:
			for i := range v {
				rest := append(append([]any{}, v[:i]...), v[i+1:]...)
				out = append(out, mutant{fmt.Sprintf("%s[%d] dropped", path, i), set(rest)})
				walk(v[i], fmt.Sprintf("%s[%d]", path, i), func(nv any) any {
					c := append([]any{}, v...)
					c[i] = nv
					return set(c)
				})
			}
		}
	}
	walk(root, "$", func(nv any) any { return nv })
	return out
}

// without is a shallow copy of m without key k.
func without(m map[string]any, k string) map[string]any {
	c := make(map[string]any, len(m))
	for key, v := range m {
		if key != k {
			c[key] = v
		}
	}
	return c
}
