package scenario

import (
	"context"
	"embed"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/scenarios"
	"github.com/fastbrowser/fastbrowser/transport"
)

const validFile = `{
  "version": 1,
  "id": "ok",
  "fixture": {"baseUrl": "http://127.0.0.1:4310",
    "server": {"mode": "managed", "start": {"command": "fastbrowser", "args": ["fixture", "serve"]},
               "readiness": {"url": "http://127.0.0.1:4310/health"}}},
  "budgets": {"timeoutMs": 60000},
  "operations": [
    {"id": "home", "op": "navigate", "request": {"url": "/form?x=1"}},
    {"id": "tabs", "op": "listTabs", "request": {"select": {"kind": "index", "index": 0}}},
    {"id": "pick", "op": "selectTab", "request": {"tab": {"source": "operation", "operation": {"id": "tabs"}, "result": "listedTab", "index": 0}}},
    {"op": "read", "request": {"tab": {"source": "initial", "target": "selected"}}},
    {"op": "assert", "request": {"tab": {"source": "operation", "operation": {"index": 2}, "result": "selectedTab"}, "kind": "title", "value": "Sign in"}}
  ]
}`

func TestParseValid(t *testing.T) {
	l, err := Parse([]byte(validFile))
	if err != nil {
		t.Fatal(err)
	}
	nav := l.Operations[0].req.bind("").(*transport.Navigate)
	if nav.URL != "http://127.0.0.1:4310/form?x=1" {
		t.Errorf("relative URL resolved to %q", nav.URL)
	}
	if len(l.Origins) != 1 || l.Origins[0] != "http://127.0.0.1:4310" {
		t.Errorf("default origins = %v, want the fixture's origin", l.Origins)
	}
	if len(l.SHA256) != 64 {
		t.Errorf("sha256 = %q", l.SHA256)
	}
}

// edit replaces one exact snippet of validFile, failing the test when it is absent.
func edit(t *testing.T, from, to string) string {
	t.Helper()
	if !strings.Contains(validFile, from) {
		t.Fatalf("snippet %q not in the valid file", from)
	}
	return strings.Replace(validFile, from, to, 1)
}

func TestParseRefusesWithPath(t *testing.T) {
	cases := []struct {
		name, from, to, path, msg string
	}{
		{"unknown field", `"id": "ok",`, `"id": "ok", "extra": 1,`, "extra", `unknown field "extra"`},
		{"case-variant key", `"id": "ok",`, `"id": "ok", "ID": "ok",`, "", "duplicate"},
		{"duplicate key", `"id": "ok",`, `"id": "ok", "id": "ok2",`, "", "duplicate"},
		{"wrong type", `"timeoutMs": 60000`, `"timeoutMs": "60000"`, "budgets.timeoutMs", "expected"},
		{"missing required", `"version": 1,`, ``, "", `missing required field "version"`},
		{"version 2", `"version": 1,`, `"version": 2,`, "version", "unsupported version 2"},
		{"timeout over ceiling", `"timeoutMs": 60000`, `"timeoutMs": 120001`, "budgets.timeoutMs", "ceiling"},
		{"nested unknown field", `"url": "/form?x=1"`, `"url": "/form?x=1", "selector": "#a"`, "operations[0].request.selector", `unknown field "selector"`},
		{"nested wrong type", `"url": "/form?x=1"`, `"url": 5`, "operations[0].request.url", "expected string"},
		{"unknown op", `"op": "read"`, `"op": "evaluate"`, "operations[3].op", "unknown op"},
		{"bad id", `"id": "ok"`, `"id": "no spaces"`, "id", "expected"},
		{"tag with a space", `"id": "ok",`, `"id": "ok", "tags": ["@smoke", "two words"],`, "tags[1]", "without spaces"},
		{"bad testIdAttribute", `"id": "ok",`, `"id": "ok", "testIdAttribute": "data test",`, "testIdAttribute", "attribute name"},
		{"duplicate op id", `"id": "pick"`, `"id": "home"`, "operations[2].id", "already used"},
		{"forward tab ref", `"operation": {"index": 2}`, `"operation": {"index": 4}`, "operations[4].request.tab.operation", "earlier"},
		{"missing tab ref", `"operation": {"id": "tabs"}`, `"operation": {"id": "nope"}`, "operations[2].request.tab.operation.id", "no operation"},
		{"wrong producer", `"result": "selectedTab"`, `"result": "popup"`, "operations[4].request.tab.result", "waitPopup"},
		{"index out of range", `"result": "listedTab", "index": 0`, `"result": "listedTab", "index": 32`, "operations[2].request.tab.index", "0–31"},
		{"assert kind", `"kind": "title"`, `"kind": "html"`, "operations[4].request.kind", "expected one of"},
		{"assert wait empty", `"kind": "title"`, `"kind": "title", "wait": ""`, "operations[4].request.wait", `expected "bounded" or "none"`},
		{"assert wait forever", `"kind": "title"`, `"kind": "title", "wait": "forever"`, "operations[4].request.wait", `expected "bounded" or "none"`},
		{"egress subresources empty", `"budgets":`, `"egress": {"subresources": ""}, "budgets":`, "egress.subresources", `expected "fail" or "report"`},
		{"egress subresources maybe", `"budgets":`, `"egress": {"subresources": "maybe"}, "budgets":`, "egress.subresources", `expected "fail" or "report"`},
		{"egress serviceWorkers empty", `"budgets":`, `"egress": {"serviceWorkers": ""}, "budgets":`, "egress.serviceWorkers", `expected "block" or "allow"`},
		{"egress webrtc empty", `"budgets":`, `"egress": {"webrtc": ""}, "budgets":`, "egress.webrtc", `expected "block" or "allow"`},
		{"egress webrtc number", `"budgets":`, `"egress": {"webrtc": 1}, "budgets":`, "egress.webrtc", "expected string"},
		{"managed without start", `"start": {"command": "fastbrowser", "args": ["fixture", "serve"]},`, ``, "fixture.server.start", "start command"},
		{"bad mode", `"mode": "managed"`, `"mode": "docker"`, "fixture.server.mode", "expected"},
		{"readiness not http", `"url": "http://127.0.0.1:4310/health"`, `"url": "file:///health"`, "fixture.server.readiness.url", "http"},
		{"base url credentials", `"baseUrl": "http://127.0.0.1:4310"`, `"baseUrl": "http://u:p@127.0.0.1:4310"`, "fixture.baseUrl", "credentials"},
		{"base url ftp", `"baseUrl": "http://127.0.0.1:4310"`, `"baseUrl": "ftp://127.0.0.1:4310"`, "fixture.baseUrl", "http"},
		{"readiness credentials", `"url": "http://127.0.0.1:4310/health"`, `"url": "http://u:pw@127.0.0.1:4310/health"`, "fixture.server.readiness.url", "credentials"},
		{"navigate credentials", `"url": "/form?x=1"`, `"url": "http://u:pw@127.0.0.1:4310/form"`, "operations[0].request.url", "credentials"},
		{"navigate scheme-relative credentials", `"url": "/form?x=1"`, `"url": "//u:pw@127.0.0.1:4310/form"`, "operations[0].request.url", "credentials"},
		{"navigate ftp", `"url": "/form?x=1"`, `"url": "ftp://u:pw@127.0.0.1/form"`, "operations[0].request.url", `scheme "ftp" is not allowed`},
		{"navigate javascript", `"url": "/form?x=1"`, `"url": "javascript:alert(1)"`, "operations[0].request.url", "http or https"},
		{"assert url credentials", `"kind": "title", "value": "Sign in"`, `"kind": "url", "value": "https://u:pw@127.0.0.1:4310/"`, "operations[4].request.value", "credentials"},
		{"assert url ftp", `"kind": "title", "value": "Sign in"`, `"kind": "url", "value": "ftp://127.0.0.1/form"`, "operations[4].request.value", "http or https"},
		{"assert origin ftp", `"kind": "title", "value": "Sign in"`, `"kind": "origin", "value": "ftp://u:pw@127.0.0.1"`, "operations[4].request.value", "http or https origin"},
		{"narrowing to ftp", `{"id": "tabs", "op": "listTabs", "request": {"select": {"kind": "index", "index": 0}}},`, `{"op": "narrowOriginPolicy", "request": {"origins": ["http://127.0.0.1:4310", "ftp://u:pw@127.0.0.1"]}}, {"id": "tabs", "op": "listTabs", "request": {"select": {"kind": "index", "index": 0}}},`, "operations[1].request.origins[1]", "http or https origin"},
		{"op timeoutMs over ceiling", `{"id": "home", "op": "navigate",`, `{"id": "home", "op": "navigate", "timeoutMs": 120001,`, "operations[0].timeoutMs", "ceiling"},
		{"op timeoutMs negative", `{"id": "home", "op": "navigate",`, `{"id": "home", "op": "navigate", "timeoutMs": -1,`, "operations[0].timeoutMs", "positive"},
		{"selectTab without tab", `"request": {"tab": {"source": "operation", "operation": {"id": "tabs"}, "result": "listedTab", "index": 0}}`, `"request": {}`, "operations[2].request", `missing required field "tab"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse([]byte(edit(t, c.from, c.to)))
			var ve *ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("err = %v, want a ValidationError", err)
			}
			if ve.Path != c.path {
				t.Errorf("path = %q, want %q (message %q)", ve.Path, c.path, ve.Message)
			}
			if !strings.Contains(ve.Message, c.msg) {
				t.Errorf("message = %q, want it to contain %q", ve.Message, c.msg)
			}
			if strings.Contains(ve.Error(), "pw") {
				t.Errorf("the refusal quotes a URL's password: %q", ve.Error())
			}
			wantCode := transport.CodeInvalidRequest
			if c.msg == "ceiling" {
				wantCode = transport.CodeBudgetExceeded
			}
			if oe := ve.OperationError(); oe.Code != wantCode || oe.Path != c.path || oe.MutationState != transport.NotAttempted {
				t.Errorf("as OperationError: %+v, want code %s", oe, wantCode)
			}
		})
	}
}

func TestParseRefusesEmptyOperations(t *testing.T) {
	_, err := Parse([]byte(`{"version":1,"id":"x","operations":[]}`))
	var ve *ValidationError
	if !errors.As(err, &ve) || ve.Path != "operations" {
		t.Fatalf("err = %v", err)
	}
}

func TestParseRelativeURLNeedsFixture(t *testing.T) {
	_, err := Parse([]byte(`{"version":1,"id":"x","operations":[{"op":"navigate","request":{"url":"/a"}}]}`))
	var ve *ValidationError
	if !errors.As(err, &ve) || ve.Path != "operations[0].request.url" {
		t.Fatalf("err = %v", err)
	}
}

func TestShippedScenarioFilesAreValid(t *testing.T) {
	for _, set := range []struct {
		fs   embed.FS
		dir  string
		want int
	}{{scenarios.Quickstart, "quickstart", 3}, {scenarios.Examples, "examples", 2}} {
		entries, err := set.fs.ReadDir(set.dir)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, e := range entries {
			data, _ := set.fs.ReadFile(set.dir + "/" + e.Name())
			if _, err := Parse(data); err != nil {
				t.Errorf("%s/%s: %v", set.dir, e.Name(), err)
			}
			n++
		}
		if n < set.want {
			t.Fatalf("found %d files in %s, want at least %d", n, set.dir, set.want)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(validFile))
	f.Add([]byte(`{"version":1,"id":"x","operations":[{"op":"read"}]}`))
	f.Add([]byte(`{"version":1,"id":"x","hooks":{"setup":{"command":"true","env":{"A":{"env":"B"},"C":"d"}}},"operations":[{"op":"listTabs"}]}`))
	f.Add([]byte(`{"version":1,"id":"x","operations":[{"op":"selectTab","request":{"tab":{"source":"initial","target":"selected"}}}]}`))
	f.Add([]byte(`{"version":2}`))
	f.Add([]byte(`[`))
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := Parse(data)
		if err != nil {
			var ve *ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("refusal is not a ValidationError: %T %v", err, err)
			}
			return
		}
		// Whatever parses must bind to requests that pass their own validation.
		for i, op := range l.Operations {
			if op.step != nil {
				continue // a step becomes observe + act + assert at run time
			}
			tab := ""
			if op.req.tab != nil {
				tab = "t1"
			}
			if err := op.req.bind(tab).Validate(); err != nil {
				t.Fatalf("operations[%d] parsed but does not validate: %v", i, err)
			}
		}
	})
}

func TestParseEnvValues(t *testing.T) {
	l, err := Parse([]byte(`{"version":1,"id":"x","hooks":{"setup":{"command":"true","env":{"A":"lit","B":{"env":"HOST_B"}}}},"operations":[{"op":"listTabs"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	env := l.Hooks.Setup.Env
	if env["A"].Literal != "lit" || env["A"].FromEnv != "" || env["B"].FromEnv != "HOST_B" {
		t.Fatalf("env %+v", env)
	}
	lookup := func(k string) (string, bool) { return map[string]string{"HOST_B": "from-host"}[k], k == "HOST_B" }
	if v, ok := env["B"].Resolve(lookup); !ok || v != "from-host" {
		t.Fatalf("resolve %q %v", v, ok)
	}
	for _, bad := range []string{`{"A":{"env":"1BAD"}}`, `{"A":{"env":"X","extra":1}}`, `{"A":5}`, `{"bad name":"x"}`} {
		_, err := Parse([]byte(`{"version":1,"id":"x","hooks":{"setup":{"command":"true","env":` + bad + `}},"operations":[{"op":"listTabs"}]}`))
		var ve *ValidationError
		if !errors.As(err, &ve) || !strings.HasPrefix(ve.Path, "hooks.setup.env") {
			t.Errorf("env %s: err %v", bad, err)
		}
	}
}

// TestParseRefusesDeepNesting: a scenario file nested past budgets.JSONNesting is refused
// with the limit named and the JSON path of the value, without recursing that deep; one
// too deep to fit 1 MiB is refused for its size.
func TestParseRefusesDeepNesting(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []int{10_000, 500_000, 8_000_000} {
		doc := `{"version":1,"id":"deep","operations":[{"op":"read","request":` + strings.Repeat("[", n) + strings.Repeat("]", n) + `}]}`
		file := filepath.Join(dir, "deep.json")
		if err := os.WriteFile(file, []byte(doc), 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := Load(file)
		var ve *ValidationError
		if !errors.As(err, &ve) || ve.File != file || ve.Code != transport.CodeInvalidRequest {
			t.Fatalf("%d levels: err = %v", n, err)
		}
		want, path := "more than 512 levels", "operations[0].request"
		if len(doc) > budgets.ScenarioFileSize {
			want, path = "larger than", ""
		}
		if !strings.Contains(ve.Message, want) || !strings.HasPrefix(ve.Path, path) {
			t.Fatalf("%d levels: path %.60q message %q, want path %q… and %q", n, ve.Path, ve.Message, path, want)
		}
	}
}

// TestParseResolvesAssertURL: a relative url assertion resolves against fixture.baseUrl
// like navigate's url (and needs one); an operation's timeoutMs becomes its calls' request
// budget.
func TestParseResolvesAssertURL(t *testing.T) {
	l, err := Parse([]byte(`{"version":1,"id":"x","fixture":{"baseUrl":"http://127.0.0.1:4310"},"operations":[
	  {"op":"assert","request":{"kind":"url","value":"/form"}},
	  {"op":"assert","request":{"kind":"url","value":"http://127.0.0.1:4310/about"}},
	  {"op":"act","timeoutMs":15000,"request":{"action":"click","target":{"role":"button","name":"Go"}}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{"http://127.0.0.1:4310/form", "http://127.0.0.1:4310/about"} {
		if got := l.Operations[i].req.bind("").(*transport.Assert).Value; got != want {
			t.Errorf("operations[%d] value %q, want %q", i, got, want)
		}
	}
	if got := transport.RequestBudget(l.Operations[2].requestBudget(context.Background())); got != 15*time.Second {
		t.Errorf("operations[2] request budget %s, want 15s", got)
	}
	if got := transport.RequestBudget(l.Operations[0].requestBudget(context.Background())); got != budgets.Request().Default {
		t.Errorf("operations[0] request budget %s, want the default", got)
	}
	_, err = Parse([]byte(`{"version":1,"id":"x","operations":[{"op":"assert","request":{"kind":"url","value":"/form"}}]}`))
	var ve *ValidationError
	if !errors.As(err, &ve) || ve.Path != "operations[0].request.value" || !strings.Contains(ve.Message, "fixture.baseUrl") {
		t.Fatalf("relative url assertion without a base: %v", err)
	}
}

// TestParseRefusalNeverSplitsACharacter: a long value quoted in a refusal is cut short on a
// character boundary (the cut once fell on a byte count and split "é").
func TestParseRefusalNeverSplitsACharacter(t *testing.T) {
	op := "a" + strings.Repeat("é", 30)
	_, err := Parse([]byte(edit(t, `"op": "read"`, `"op": "`+op+`"`)))
	var ve *ValidationError
	if !errors.As(err, &ve) || ve.Path != "operations[3].op" {
		t.Fatalf("err = %v, want a refusal of operations[3].op", err)
	}
	if !utf8.ValidString(ve.Message) || !strings.Contains(ve.Message, `"a`+strings.Repeat("é", 19)+`…"`) {
		t.Fatalf("message %q: want the op cut to 39 bytes, whole characters, and marked", ve.Message)
	}
}
