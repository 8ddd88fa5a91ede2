package runtime_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime"
	"github.com/fastbrowser/fastbrowser/runtime/model"
	"github.com/fastbrowser/fastbrowser/runtime/model/modeltest"
	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/transport"
)

// shopPage lists two products as card links (a link's children stay in the outline), and a
// Note field whose text the page echoes where the outline shows it:
//
//	main
//	  heading[1] "Kettles and mugs"
//	  link [e1] "Blue Kettle Price: $19.99" -> /p/kettle
//	    heading[2] "Blue Kettle"
//	    text "Price: $19.99"
//	  link [e2] "Red Mug Price: $7.50" -> /p/mug
//	    …
//	  textbox [e3] "Note"
const shopPage = `<!doctype html><title>Shop</title><main><h1>Kettles and mugs</h1>
<a href="/p/kettle"><h2>Blue Kettle</h2><span>Price: $19.99</span></a>
<a href="/p/mug"><h2>Red Mug</h2><span>Price: $7.50</span></a>
<label>Note <input name="note" oninput="document.getElementById('echo').textContent = 'You typed ' + this.value"></label>
<p id="echo"></p>
</main>`

const (
	productSchema = `{"type":"object","properties":{"name":{"type":"string"},"price":{"type":"number"}},"required":["name","price"],"additionalProperties":false}`
	modelKeyEnv   = "EXTRACT_MODEL_KEY"
	modelKey      = "sk-extract-test-key-0123456789"
)

// openShop opens a session whose model is a scripted server speaking provider's format, on
// shopPage.
func openShop(t *testing.T, provider string, script ...modeltest.Step) (*runtime.Runtime, *modeltest.Server) {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte(shopPage))
	}))
	t.Cleanup(srv.Close)
	m := modeltest.Start(t, script...)
	cfg := m.Config(provider, modelKeyEnv)
	b, err := runtimetest.Browser()
	if err != nil {
		t.Fatal(err)
	}
	rt := runtimetest.OpenWith(t, runtimetest.Options{CDPURL: b.WebSocketURL(), Model: &cfg, LookupEnv: func(name string) (string, bool) {
		switch name {
		case modelKeyEnv:
			return modelKey, true
		case "PORTAL_TOKEN":
			return secretValue, true
		}
		return "", false
	}})
	if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: srv.URL}); err != nil {
		t.Fatal(err)
	}
	// Refs are the session's, given in the order elements are first seen: observing first
	// gives them in page order, whatever a test does next.
	if ob := observe(t, rt); !strings.Contains(ob.Text, `link [e1] "Blue Kettle`) {
		t.Fatalf("the shop's outline is not what the tests cite:\n%s", ob.Text)
	}
	return rt, m
}

// extractCall is the scripted model's one call to extract.
func extractCall(data any, citations map[string]string) modeltest.Step {
	return modeltest.Step{Tool: transport.ToolExtract, Args: map[string]any{"data": data, "citations": citations}, InputTokens: 120, OutputTokens: 30}
}

// extractFails runs req and returns its error, which must be an extract error with code,
// nothing attempted on the page, and the one turn's receipt ending in code.
func extractFails(t *testing.T, rt transport.Caller, req transport.Extract, code transport.Code) *transport.OperationError {
	t.Helper()
	res, err := transport.Dispatch(bg, rt, req)
	oe := transport.AsOperationError("", err)
	if oe == nil || oe.Code != code || oe.Operation != transport.OpExtract || oe.MutationState != transport.NotAttempted {
		t.Fatalf("extract: result %+v error %#v, want %s", res, oe, code)
	}
	if len(oe.Turns) != 1 || oe.Turns[0].Turn != 1 || oe.Turns[0].Outcome != string(code) {
		t.Errorf("turns %+v, want one receipt ending %s", oe.Turns, code)
	}
	return oe
}

// TestExtractCitesEachValue: a product page mapped into {name, price}, each value citing the
// link it was read from; the model was shown the outline and the caller's schema as its one
// tool's data parameter, and the receipt says what the turn cost.
func TestExtractCitesEachValue(t *testing.T) {
	t.Parallel()
	rt, m := openShop(t, model.ProviderOpenAI, extractCall(map[string]any{"name": "Blue Kettle", "price": 19.99}, map[string]string{"/name": "e1", "/price": "e1"}))
	res, err := transport.Dispatch(bg, rt, transport.Extract{Schema: transport.JSONValue(productSchema)})
	if err != nil {
		t.Fatal(err)
	}
	var data map[string]any
	if err := json.Unmarshal(res.Data, &data); err != nil || data["name"] != "Blue Kettle" || data["price"] != 19.99 || len(data) != 2 {
		t.Errorf("data %s (%v)", res.Data, err)
	}
	if len(res.Citations) != 2 || res.Citations["/name"] != "e1" || res.Citations["/price"] != "e1" {
		t.Errorf("citations %v", res.Citations)
	}
	if res.Tab != "t1" {
		t.Errorf("tab %q, want the selected tab's handle t1", res.Tab)
	}
	if len(res.Turns) != 1 {
		t.Fatalf("turns %+v", res.Turns)
	}
	if r := res.Turns[0]; r.Turn != 1 || r.Tool != transport.ToolExtract || r.Outcome != transport.OutcomeOK || r.InputTokens != 120 || r.OutputTokens != 30 || r.ActionMs != 0 {
		t.Errorf("receipt %+v", r)
	}
	reqs := m.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d model requests, want 1", len(reqs))
	}
	body := string(reqs[0].Body)
	for _, want := range []string{`link [e1] \"Blue Kettle Price: $19.99\"`, `"name":"extract"`, `"citations"`, `"price":{"type":"number"}`} {
		if !strings.Contains(body, want) {
			t.Errorf("the model request does not hold %s:\n%s", want, body)
		}
	}
}

// TestExtractScopeBoundsCitations: scoped to the kettle's link, the model is shown that
// subtree only, and a value cited to the mug's link (outside it) is refused.
func TestExtractScopeBoundsCitations(t *testing.T) {
	t.Parallel()
	rt, m := openShop(t, model.ProviderOpenAI,
		extractCall(map[string]any{"name": "Blue Kettle", "price": 19.99}, map[string]string{"/name": "e1", "/price": "e1"}),
		extractCall(map[string]any{"name": "Red Mug", "price": 7.5}, map[string]string{"/name": "e2", "/price": "e2"}))
	res, err := transport.Dispatch(bg, rt, transport.Extract{Schema: transport.JSONValue(productSchema), Scope: "e1"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Citations["/name"] != "e1" {
		t.Errorf("citations %v", res.Citations)
	}
	body := string(m.Requests()[0].Body)
	if !strings.Contains(body, "link [e1]") || strings.Contains(body, "Red Mug") || strings.Contains(body, "Kettles and mugs") {
		t.Errorf("the scoped request shows more than the kettle's link:\n%s", body)
	}
	oe := extractFails(t, rt, transport.Extract{Schema: transport.JSONValue(productSchema), Scope: "e1"}, transport.CodeTaskRefused)
	if oe.Phase != transport.PhaseVerify || !strings.Contains(oe.Message, `"/name" cites ref "e2", which is not in the outline the model was shown`) {
		t.Errorf("refusal %#v", oe)
	}
	oe = extractFails(t, rt, transport.Extract{Schema: transport.JSONValue(productSchema), Scope: "e99"}, transport.CodeElementNotFound)
	if oe.Path != "request.scope" {
		t.Errorf("path %q, want request.scope", oe.Path)
	}
	if n := len(m.Requests()); n != 2 {
		t.Errorf("%d model requests, want 2 (a scope not found asks no model)", n)
	}
}

// TestExtractRefusesUnprovenAnswers: every answer the runtime cannot prove from the page is
// task_refused in phase verify, naming the JSON Pointer and never the value.
func TestExtractRefusesUnprovenAnswers(t *testing.T) {
	t.Parallel()
	good := map[string]string{"/name": "e1", "/price": "e1"}
	cases := []struct {
		name string
		step modeltest.Step
		msg  string
	}{
		{"schema violation", extractCall(map[string]any{"name": "Blue Kettle", "price": "cheap-as-chips"}, good), `data at "/price" fails the schema's "type" keyword`},
		{"missing required", extractCall(map[string]any{"name": "Blue Kettle"}, map[string]string{"/name": "e1"}), `data at "" fails the schema's "required" keyword (missing price)`},
		{"ref not in the outline", extractCall(map[string]any{"name": "Blue Kettle", "price": 19.99}, map[string]string{"/name": "e99", "/price": "e1"}), `"/name" cites ref "e99", which is not in the outline`},
		{"string not in the cited node", extractCall(map[string]any{"name": "Green Kettle-Phantom", "price": 19.99}, good), `"/name" does not occur in the text of ref "e1"`},
		{"string from another node", extractCall(map[string]any{"name": "Red Mug", "price": 19.99}, good), `"/name" does not occur in the text of ref "e1"`},
		{"no citation", extractCall(map[string]any{"name": "Blue Kettle", "price": 19.99}, map[string]string{"/name": "e1"}), `the value at "/price" has no citation`},
		{"extra citation", extractCall(map[string]any{"name": "Blue Kettle", "price": 19.99}, map[string]string{"/name": "e1", "/price": "e1", "/colour": "e1"}), `the citation for "/colour" names no string`},
		{"another tool", modeltest.Step{Tool: "act", Args: map[string]any{"ref": "e1"}}, "called a tool other than extract"},
		{"no tool call", modeltest.Step{Text: "Blue Kettle costs 19.99"}, "called no tool"},
	}
	var script []modeltest.Step
	for _, c := range cases {
		script = append(script, c.step)
	}
	rt, _ := openShop(t, model.ProviderOpenAI, script...)
	for _, c := range cases { // in script order: one extract per step
		oe := extractFails(t, rt, transport.Extract{Schema: transport.JSONValue(productSchema)}, transport.CodeTaskRefused)
		if oe.Phase != transport.PhaseVerify || !strings.Contains(oe.Message, c.msg) {
			t.Errorf("%s: %s, want it to say %s", c.name, oe.Message, c.msg)
		}
		for _, v := range []string{"cheap-as-chips", "Phantom", "costs"} {
			if strings.Contains(oe.Message, v) {
				t.Errorf("%s: the message quotes the model's value %q: %s", c.name, v, oe.Message)
			}
		}
		wantTool := transport.ToolExtract
		if c.step.Tool != transport.ToolExtract {
			wantTool = ""
		}
		if oe.Turns[0].Tool != wantTool {
			t.Errorf("%s: receipt tool %q, want %q", c.name, oe.Turns[0].Tool, wantTool)
		}
	}
}

// TestExtractNeverSendsSecrets: a secret typed from {"env":…} that the page shows again is
// not in any model request, nor in the result; the API key never is in a body, with either
// provider.
func TestExtractNeverSendsSecrets(t *testing.T) {
	t.Parallel()
	for _, provider := range []string{model.ProviderOpenAI, model.ProviderAnthropic} {
		t.Run(provider, func(t *testing.T) {
			t.Parallel()
			rt, m := openShop(t, provider, extractCall(map[string]any{"name": "Blue Kettle", "price": 19.99}, map[string]string{"/name": "e1", "/price": "e1"}))
			if _, err := transport.Dispatch(bg, rt, transport.Act{Action: transport.ActType, Target: transport.Target{Role: "textbox", Name: transport.Match("Note")}, Text: transport.FromEnv("PORTAL_TOKEN")}); err != nil {
				t.Fatal(err)
			}
			if _, err := transport.Dispatch(bg, rt, transport.Assert{Kind: transport.AssertTextContains, Value: "You typed", Wait: "none"}); err != nil {
				t.Fatalf("the page does not echo the note: %v", err)
			}
			res, err := transport.Dispatch(bg, rt, transport.Extract{Schema: transport.JSONValue(productSchema)})
			if err != nil {
				t.Fatal(err)
			}
			out, _ := json.Marshal(res)
			noSecretPrefix(t, "the result", string(out))
			reqs := m.Requests()
			if len(reqs) != 1 {
				t.Fatalf("%d model requests", len(reqs))
			}
			body := string(reqs[0].Body)
			if !strings.Contains(body, "You typed") {
				t.Fatalf("the model was not shown the echo, so the test proves nothing:\n%s", body)
			}
			noSecretPrefix(t, "the model request", body)
			if strings.Contains(body, modelKey) {
				t.Error("the model request body holds the API key")
			}
		})
	}
}

// TestExtractWithoutModel: a session without a model refuses extract model_required.
func TestExtractWithoutModel(t *testing.T) {
	t.Parallel()
	rt := runtimetest.Open(t)
	_, err := transport.Dispatch(bg, rt, transport.Extract{Schema: transport.JSONValue(productSchema)})
	if oe := transport.AsOperationError("", err); oe.Code != transport.CodeModelRequired || oe.Operation != transport.OpExtract {
		t.Fatalf("err %v, want model_required", err)
	}
}

// TestExtractModelFailure: the endpoint's failure is extract's model_failed, with the
// turn's receipt.
func TestExtractModelFailure(t *testing.T) {
	t.Parallel()
	rt, _ := openShop(t, model.ProviderOpenAI, modeltest.Step{Status: http.StatusInternalServerError})
	oe := extractFails(t, rt, transport.Extract{Schema: transport.JSONValue(productSchema)}, transport.CodeModelFailed)
	if oe.Turns[0].Tool != "" || strings.Contains(oe.Message, "ECHOED-PROMPT") {
		t.Errorf("error %#v", oe)
	}
}

// TestExtractObservationRefused: with less than the observation floor left of the extract's
// own budget, it is refused before anything is observed or asked; an observation that fails
// (a tab the session does not have) is extract's failure, with its receipt, and no model is
// asked either.
func TestExtractObservationRefused(t *testing.T) {
	t.Parallel()
	rt, m := openShop(t, model.ProviderOpenAI)
	oe := extractFails(t, rt, transport.Extract{Schema: transport.JSONValue(productSchema), TimeoutMs: 1000}, transport.CodeBudgetExceeded)
	if oe.Phase != transport.PhaseDispatch {
		t.Errorf("phase %s, want dispatch", oe.Phase)
	}
	oe = extractFails(t, rt, transport.Extract{Schema: transport.JSONValue(productSchema), Tab: "t9"}, transport.CodeTabNotFound)
	if oe.Path != "request.tab" || oe.Turns[0].Tool != "" {
		t.Errorf("error %#v", oe)
	}
	if n := len(m.Requests()); n != 0 {
		t.Errorf("%d model requests", n)
	}
}

// TestExtractValidatesSchema: a library caller's bad schema is refused at request.schema
// before the model is asked; a $ref to http:// too.
func TestExtractValidatesSchema(t *testing.T) {
	t.Parallel()
	rt, m := openShop(t, model.ProviderOpenAI)
	for _, schema := range []string{`{"type":"object","properties":{"a":{"type":"strung"}}}`, `{"type":"object","properties":{"a":{"$ref":"http://127.0.0.1:9/a.json"}}}`} {
		_, err := transport.Dispatch(bg, rt, transport.Extract{Schema: transport.JSONValue(schema)})
		if oe := transport.AsOperationError("", err); oe.Code != transport.CodeInvalidRequest || oe.Path != "request.schema" {
			t.Errorf("%s: %v, want invalid_request at request.schema", schema, err)
		}
	}
	if n := len(m.Requests()); n != 0 {
		t.Errorf("%d model requests", n)
	}
}

// TestExtractCitesStaticTextByLine: a value read from static text, which has no ref, cites
// the line id the model was shown at the start of its line (the shop's heading is L2); a
// line id that was not shown, or a string not on the cited line, is refused.
func TestExtractCitesStaticTextByLine(t *testing.T) {
	t.Parallel()
	schema := transport.JSONValue(`{"type":"object","properties":{"title":{"type":"string"}},"required":["title"]}`)
	rt, m := openShop(t, model.ProviderAnthropic,
		extractCall(map[string]any{"title": "Kettles and mugs"}, map[string]string{"/title": "L2"}),
		extractCall(map[string]any{"title": "Kettles and mugs"}, map[string]string{"/title": "L99"}),
		extractCall(map[string]any{"title": "Kettles and mugs"}, map[string]string{"/title": "L3"}))
	res, err := transport.Dispatch(bg, rt, transport.Extract{Schema: schema})
	if err != nil {
		t.Fatal(err)
	}
	if res.Citations["/title"] != "L2" || !strings.Contains(string(res.Data), "Kettles and mugs") {
		t.Errorf("data %s citations %v", res.Data, res.Citations)
	}
	if body := string(m.Requests()[0].Body); !strings.Contains(body, `L2   heading[1] \"Kettles and mugs\"`) || !strings.Contains(body, `L3   link [e1]`) {
		t.Errorf("the model was not shown line ids:\n%s", body)
	}
	oe := extractFails(t, rt, transport.Extract{Schema: schema}, transport.CodeTaskRefused)
	if !strings.Contains(oe.Message, `cites ref "L99", which is not in the outline`) {
		t.Errorf("an unshown line: %s", oe.Message)
	}
	oe = extractFails(t, rt, transport.Extract{Schema: schema}, transport.CodeTaskRefused)
	if !strings.Contains(oe.Message, `does not occur in the text of ref "L3"`) {
		t.Errorf("a string not on the cited line: %s", oe.Message)
	}
}

// TestExtractLinkFieldWarnsAndCitesTheLink: a schema with a link field ("url") gets a warning
// in the result that the value may be a relative path; the model reads the kettle link's
// address as the outline shows it (a same-site link by its path) and cites the link, its ref
// written with the outline's brackets, which the runtime reads without them.
func TestExtractLinkFieldWarnsAndCitesTheLink(t *testing.T) {
	t.Parallel()
	rt, _ := openShop(t, model.ProviderOpenAI, extractCall(map[string]any{"name": "Blue Kettle", "url": "/p/kettle"}, map[string]string{"/name": "[e1]", "/url": "[e1]"}))
	schema := `{"type":"object","properties":{"name":{"type":"string"},"url":{"type":"string"}},"required":["name","url"]}`
	res, err := transport.Dispatch(bg, rt, transport.Extract{Schema: transport.JSONValue(schema)})
	if err != nil {
		t.Fatal(err)
	}
	if string(res.Data) != `{"name":"Blue Kettle","url":"/p/kettle"}` || res.Citations["/url"] != "e1" || res.Citations["/name"] != "e1" {
		t.Errorf("data %s, citations %v", res.Data, res.Citations)
	}
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], `data field "/url" looks like a link`) || !strings.Contains(res.Warnings[0], "relative path") {
		t.Errorf("warnings %q, want one about /url", res.Warnings)
	}
}
