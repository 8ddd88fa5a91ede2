package scenario

import (
	"errors"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/transport"
)

func outlineOf(nodes ...transport.OutlineNode) []transport.OutlineNode { return nodes }

func TestMatchElement(t *testing.T) {
	nodes := outlineOf(
		transport.OutlineNode{Role: "heading", Name: "Sign in"},
		transport.OutlineNode{Role: "form", Children: []transport.OutlineNode{
			{Ref: "e1", Role: "textbox", Name: "Username"},
			{Ref: "e2", Role: "textbox", Name: "Password"},
			{Ref: "e3", Role: "button", Name: "Sign in"},
			{Ref: "e4", Role: "link", Name: "Forgot password?"},
			{Ref: "e5", Role: "button", Name: "Delete"},
			{Ref: "e6", Role: "button", Name: "Delete"},
			{Ref: "e7", Role: "button", Name: "Continue to checkout"},
			{Ref: "e8", Role: "button", Name: "Archived", Disabled: true},
		}},
	)
	cases := []struct {
		instruction, action, ref, rule string
		code                           transport.Code
	}{
		{"Sign in", "click", "e3", "exact", ""},                      // the heading has no ref and the wrong role
		{"sign IN", "click", "e3", "caseInsensitive", ""},            // case folded
		{"Username", "type", "e1", "exact", ""},                      // a textbox for typing
		{"Username", "click", "", "", transport.CodeElementNotFound}, // no clickable "Username"
		{"forgot password", "click", "e4", "containment", ""},        // punctuation and case dropped
		{"Click Continue to checkout now", "click", "e7", "containment", ""},
		{"Delete", "click", "", "", transport.CodeElementAmbiguous},  // two, refused, never guessed
		{"Archived", "click", "", "", transport.CodeElementNotFound}, // disabled elements are not candidates
		{"Nothing like it", "click", "", "", transport.CodeElementNotFound},
	}
	for _, c := range cases {
		got, rule, err := transport.MatchElement(nodes, c.instruction, c.action, OpStep)
		if c.code != "" {
			var oe *transport.OperationError
			if !errors.As(err, &oe) || oe.Code != c.code || oe.MutationState != transport.NotAttempted {
				t.Errorf("%q/%s: err %v, want %s", c.instruction, c.action, err, c.code)
			}
			continue
		}
		if err != nil || got.Ref != c.ref || rule != c.rule {
			t.Errorf("%q/%s: got %+v %s %v, want %s by %s", c.instruction, c.action, got, rule, err, c.ref, c.rule)
		}
	}
	_, _, err := transport.MatchElement(nodes, "Delete", "click", OpStep)
	if err == nil || !strings.Contains(err.Error(), "2 elements") {
		t.Errorf("ambiguity must give the count: %v", err)
	}
}

func TestParseStep(t *testing.T) {
	good := `{"version":1,"id":"s","fixture":{"baseUrl":"http://127.0.0.1:4310"},"operations":[
	  {"op":"navigate","request":{"url":"/replace"}},
	  {"op":"step","step":{"instruction":"Continue","action":"click","postcondition":{"kind":"text","value":"Done"}}},
	  {"op":"step","step":{"instruction":"Go","action":"click","postcondition":{"kind":"url","value":"/about"}}},
	  {"op":"step","step":{"instruction":"Password","action":"type","text":{"env":"PORTAL_PASSWORD"},"postcondition":{"kind":"title","value":"x"}}}
	]}`
	l, err := Parse([]byte(good))
	if err != nil {
		t.Fatal(err)
	}
	if got := l.Operations[2].step.Postcondition.Value; got != "http://127.0.0.1:4310/about" {
		t.Errorf("relative postcondition url resolved to %q", got)
	}
	if tx := l.Operations[3].step.Text; tx == nil || tx.EnvName() != "PORTAL_PASSWORD" {
		t.Errorf("env text %v", tx)
	}
	bad := []struct{ step, path string }{
		{`{"instruction":"","action":"click","postcondition":{"kind":"text","value":"x"}}`, "operations[0].step.instruction"},
		{`{"instruction":"a","action":"tap","postcondition":{"kind":"text","value":"x"}}`, "operations[0].step.action"},
		{`{"instruction":"a","action":"click","postcondition":{"kind":"html","value":"x"}}`, "operations[0].step.postcondition.kind"},
		{`{"instruction":"a","action":"click"}`, "operations[0].step"},
		{`{"instruction":"a","action":"type","postcondition":{"kind":"text","value":"x"}}`, "operations[0].step.text"},
		{`{"instruction":"a","action":"click","text":"x","postcondition":{"kind":"text","value":"x"}}`, "operations[0].step.text"},
		{`{"instruction":"a","action":"click","selector":"#x","postcondition":{"kind":"text","value":"x"}}`, "operations[0].step.selector"},
		{`{"instruction":"a","action":"click","dialog":"yes","postcondition":{"kind":"text","value":"x"}}`, "operations[0].step.dialog"},
		{`{"instruction":"a","action":"click","promptText":"Ada","postcondition":{"kind":"text","value":"x"}}`, "operations[0].step.promptText"},
	}
	for _, b := range bad {
		_, err := Parse([]byte(`{"version":1,"id":"s","operations":[{"op":"step","step":` + b.step + `}]}`))
		var ve *ValidationError
		if !errors.As(err, &ve) || ve.Path != b.path {
			t.Errorf("step %s: err %v, want path %s", b.step, err, b.path)
		}
	}
	_, err = Parse([]byte(`{"version":1,"id":"s","operations":[{"op":"step","request":{},"step":{"instruction":"a","action":"click","postcondition":{"kind":"text","value":"x"}}}]}`))
	var ve *ValidationError
	if !errors.As(err, &ve) || ve.Path != "operations[0].request" {
		t.Errorf("step with request: %v", err)
	}
}

// TestParseSeedPopupExample is the seed's "popup-check" example, verbatim.
func TestParseSeedPopupExample(t *testing.T) {
	l, err := Parse([]byte(seedPopupCheck))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(l.Operations); n != 4 {
		t.Fatalf("%d operations", n)
	}
	// Tab references name the right earlier operations.
	if ref := l.Operations[3].req.tab; ref == nil || ref.Operation.ID != "selected" || ref.Result != "selectedTab" {
		t.Fatalf("waitPopup opener %+v", ref)
	}
}

const seedPopupCheck = `{
  "version": 1,
  "id": "popup-check",
  "operations": [
    {"id":"start","op":"read","request":{"tab":{"source":"initial","target":"selected"}}},
    {"id":"tabs","op":"listTabs","request":{"select":{"kind":"origin","origin":"http://127.0.0.1:4310"}}},
    {"id":"selected","op":"selectTab","request":{"tab":{"source":"operation","operation":{"id":"tabs"},"result":"listedTab","index":0}}},
    {"id":"popup","op":"waitPopup","request":{"opener":{"source":"operation","operation":{"id":"selected"},"result":"selectedTab"}}}
  ]
}`

// TestParseRejectsMalformedTabReferences is acceptance 5 of the page model: each malformed
// reference is refused with the operation index and the JSON path.
func TestParseRejectsMalformedTabReferences(t *testing.T) {
	cases := []struct{ from, to, path string }{
		{`"operation":{"id":"selected"},"result":"selectedTab"`, `"operation":{"id":"popup"},"result":"selectedTab"`, "operations[3].request.opener.operation"},
		{`"operation":{"id":"selected"},"result":"selectedTab"`, `"operation":{"id":"nope"},"result":"selectedTab"`, "operations[3].request.opener.operation.id"},
		{`"operation":{"id":"selected"},"result":"selectedTab"`, `"operation":{"index":7},"result":"selectedTab"`, "operations[3].request.opener.operation.index"},
		{`"operation":{"id":"selected"},"result":"selectedTab"`, `"operation":{"id":"tabs"},"result":"selectedTab"`, "operations[3].request.opener.result"},
		{`"operation":{"id":"selected"},"result":"selectedTab"`, `"operation":{"id":"selected"},"result":"popup"`, "operations[3].request.opener.result"},
		{`"operation":{"id":"selected"},"result":"selectedTab"`, `"operation":{"id":"selected"},"result":"selectedTab","index":0`, "operations[3].request.opener.index"},
		{`"result":"listedTab","index":0`, `"result":"listedTab","index":32`, "operations[2].request.tab.index"},
		{`"result":"listedTab","index":0`, `"result":"listedTab","index":-1`, "operations[2].request.tab.index"},
		{`{"source":"initial","target":"selected"}`, `{"source":"initial","target":"first"}`, "operations[0].request.tab.target"},
		{`{"source":"initial","target":"selected"}`, `{"source":"later"}`, "operations[0].request.tab.source"},
		{`"operation":{"id":"tabs"}`, `"operation":{"id":"tabs","index":1}`, "operations[2].request.tab.operation"},
		{`{"id":"selected","op"`, `{"id":"tabs","op"`, "operations[2].id"},
	}
	for _, c := range cases {
		if !strings.Contains(seedPopupCheck, c.from) {
			t.Fatalf("bad case %q", c.from)
		}
		_, err := Parse([]byte(strings.Replace(seedPopupCheck, c.from, c.to, 1)))
		var ve *ValidationError
		if !errors.As(err, &ve) || ve.Path != c.path {
			t.Errorf("%s: err %v, want path %s", c.to, err, c.path)
		}
	}
}
