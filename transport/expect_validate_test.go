package transport

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/transport/strictjson"
)

// decodeAssert decodes an assert request as a frame's request is decoded, then validates it
// as Serve does.
func decodeAssert(t *testing.T, raw string) (*Assert, error) {
	t.Helper()
	var a Assert
	if err := strictjson.DecodeAt([]byte(raw), &a, "request"); err != nil {
		return nil, err
	}
	return &a, Validate(&a)
}

// TestExpectRequestsValid: the JSON shapes of the web-first kinds, and the old ones, decode
// and validate; a regex value keeps its form, a string value fills Value.
func TestExpectRequestsValid(t *testing.T) {
	for _, raw := range []string{
		`{"kind":"url","value":"http://a.test/"}`,
		`{"kind":"url","value":{"regex":"#section-\\d$"},"ignoreCase":true}`,
		`{"kind":"title","value":""}`,
		`{"kind":"title","value":{"regex":"^Inbox","flags":"i"}}`,
		`{"kind":"value","value":"","target":{"role":"textbox","name":"Nick"}}`,
		`{"kind":"value","value":{"regex":"^SN-\\d+$"},"target":{"label":"Serial"}}`,
		`{"kind":"count","value":"3","target":{"text":"Delete"}}`,
		`{"kind":"visible","target":{"testId":"toast"},"timeoutMs":30000}`,
		`{"kind":"hidden","target":{"testId":"toast"},"not":true,"wait":"none"}`,
		`{"kind":"enabled","target":{"role":"button","name":"Save"}}`,
		`{"kind":"disabled","target":{"role":"button","name":"Save"}}`,
		`{"kind":"editable","target":{"label":"Name"}}`,
		`{"kind":"focused","target":{"label":"Name"}}`,
		`{"kind":"attribute","target":{"role":"link","name":"Docs"},"name":"href"}`,
		`{"kind":"attribute","target":{"role":"link","name":"Docs"},"name":"href","value":"/docs","ignoreCase":true}`,
		`{"kind":"attribute","target":{"role":"link","name":"Docs"},"name":"href","value":{"regex":"^/docs"}}`,
		`{"kind":"class","target":{"testId":"x"},"value":"a b"}`,
		`{"kind":"class","target":{"testId":"x"},"value":{"regex":"(^|\\s)active(\\s|$)"}}`,
		`{"kind":"classContains","target":{"testId":"x"},"value":"active"}`,
		`{"kind":"text","target":{"testId":"x"},"value":"feed the dog","useInnerText":true}`,
		`{"kind":"text","target":{"testId":"x"},"value":{"regex":"^buy milk$","flags":"ims"}}`,
		`{"kind":"text","target":{"role":"listitem"},"values":["a",{"regex":"^b"}]}`,
		`{"kind":"values","target":{"label":"Fruits"},"values":[]}`,
		`{"kind":"storage","storage":{"area":"local","key":"theme"}}`,
		`{"kind":"storage","storage":{"area":"session","key":"cart"},"value":"3 items"}`,
		`{"kind":"storage","storage":{"area":"local","key":"prefs"},"jsonContains":{"flags":{"beta":true}},"not":true}`,
		`{"kind":"textContains","value":"Welcome"}`,
	} {
		if _, err := decodeAssert(t, raw); err != nil {
			t.Errorf("%s: %v", raw, err)
		}
	}
	a, _ := decodeAssert(t, `{"kind":"text","target":{"testId":"x"},"value":{"regex":"^a$","flags":"i"}}`)
	if !a.ValueMatch.IsRegex() || a.Value != "" || a.ValueMatch.Describe() != "/^a$/i" {
		t.Errorf("regex value: %+v", a.ValueMatch)
	}
	a, _ = decodeAssert(t, `{"kind":"title","value":"Inbox"}`)
	if a.Value != "Inbox" {
		t.Errorf("string value: Value %q", a.Value)
	}
}

// TestExpectRequestsRefused: every wrong combination is invalid_request at its field.
func TestExpectRequestsRefused(t *testing.T) {
	for _, c := range []struct{ raw, path, says string }{
		{`{"kind":"visible","target":{"testId":"x"},"value":"yes"}`, "request.value", "takes no value"},
		{`{"kind":"visible"}`, "request.target", "needs a target"},
		{`{"kind":"focused","target":{"testId":"x"},"values":["a"]}`, "request.values", "values goes with kinds text and values"},
		{`{"kind":"attribute","target":{"testId":"x"}}`, "request.name", "needs the attribute's name"},
		{`{"kind":"title","value":"x","name":"href"}`, "request.name", "name goes with kind attribute"},
		{`{"kind":"text","target":{"testId":"x"}}`, "request.value", "needs a value"},
		{`{"kind":"text","target":{"testId":"x"},"value":"a","values":["a"]}`, "request.values", "not both"},
		{`{"kind":"text","target":{"ref":"e1"},"values":["a"]}`, "request.target", "a ref names one element"},
		{`{"kind":"values","target":{"testId":"x"}}`, "request.values", "needs values"},
		{`{"kind":"status","value":{"regex":"^2"}}`, "request.value", "compares a plain string"},
		{`{"kind":"classContains","target":{"testId":"x"},"value":{"regex":"a"}}`, "request.value", "compares a plain string"},
		{`{"kind":"classContains","target":{"testId":"x"},"value":" "}`, "request.value", "class names"},
		{`{"kind":"text","target":{"testId":"x"},"value":{"regex":"(a"}}`, "request.value.regex", "not a regular expression"},
		{`{"kind":"text","target":{"testId":"x"},"value":{"regex":"a","flags":"g"}}`, "request.value.flags", "i, m, s and u"},
		{`{"kind":"text","target":{"testId":"x"},"value":{"regex":"a","flags":"ii"}}`, "request.value.flags", "each once"},
		{`{"kind":"text","target":{"testId":"x"},"value":{"regex":"(?P<n>a)"}}`, "request.value.regex", "RE2-only"},
		{`{"kind":"text","target":{"testId":"x"},"values":[{"regex":"[a"}]}`, "request.values[0].regex", "not a regular expression"},
		{`{"kind":"title","value":"x","ignoreCase":true}`, "request.ignoreCase", "ignoreCase goes with"},
		{`{"kind":"attribute","target":{"testId":"x"},"name":"id","useInnerText":true}`, "request.useInnerText", "goes with kind text"},
		{`{"kind":"storage"}`, "request.storage", "needs storage"},
		{`{"kind":"storage","storage":{"area":"cookie","key":"k"}}`, "request.storage.area", "local"},
		{`{"kind":"storage","storage":{"area":"local","key":""}}`, "request.storage.key", "non-empty"},
		{`{"kind":"storage","storage":{"area":"local","key":"k"},"value":"v","jsonContains":{}}`, "request.jsonContains", "not both"},
		{`{"kind":"storage","storage":{"area":"local","key":"k"},"target":{"testId":"x"}}`, "request.target", "target goes with"},
		{`{"kind":"storage","storage":{"area":"local","key":"k"},"value":{"regex":"v"}}`, "request.value", "compares a plain string"},
		{`{"kind":"url","value":"x","storage":{"area":"local","key":"k"}}`, "request.storage", "storage goes with kind storage"},
		{`{"kind":"url","value":"x","jsonContains":1}`, "request.jsonContains", "goes with kind storage"},
		{`{"kind":"count","value":"1","target":{"ref":"e1"}}`, "request.target", "a ref names one element"},
		{`{"kind":"url"}`, "request.value", "needs a value"},
		{`{"kind":"url","value":""}`, "request.value", "non-empty"},
	} {
		_, err := decodeAssert(t, c.raw)
		oe := AsOperationError(OpAssert, err)
		if err == nil || oe.Code != CodeInvalidRequest || oe.Path != c.path || !strings.Contains(oe.Message, c.says) {
			t.Errorf("%s: %v (path %q), want invalid_request at %s saying %q", c.raw, err, oe.Path, c.path, c.says)
		}
	}
	_, err := decodeAssert(t, `{"kind":"visible","target":{"testId":"x"},"timeoutMs":120001}`)
	if oe := AsOperationError(OpAssert, err); err == nil || oe.Code != CodeBudgetExceeded || oe.Path != "request.timeoutMs" {
		t.Errorf("timeoutMs over the expect ceiling: %v", err)
	}
}

// TestAssertWireForm: a Go caller's Value goes out as "value" once validated, a regex as
// {"regex", "flags"}, and values [] stays [].
func TestAssertWireForm(t *testing.T) {
	for _, c := range []struct {
		a    Assert
		want string
	}{
		{Assert{Kind: AssertTitle, Value: "Inbox"}, `"value":"Inbox"`},
		{Assert{Kind: AssertTitle, ValueMatch: Is("")}, `"value":""`},
		{Assert{Kind: AssertText, Target: &Target{TestID: "x"}, ValueMatch: Like("^a$", "i")}, `"value":{"flags":"i","regex":"^a$"}`},
		{Assert{Kind: AssertValues, Target: &Target{TestID: "x"}, Values: []ValueMatch{}}, `"values":[]`},
	} {
		a := c.a
		if err := Validate(&a); err != nil {
			t.Fatalf("%+v: %v", c.a, err)
		}
		b, err := json.Marshal(&a)
		if err != nil || !strings.Contains(string(b), c.want) {
			t.Errorf("%+v: %s, want %s", c.a, b, c.want)
		}
	}
}
