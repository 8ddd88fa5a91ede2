package scenario

import "testing"

// TestOperationSummary: each operation's report says what it targets and the value it uses,
// a typed secret only as the mask and its variable's name.
func TestOperationSummary(t *testing.T) {
	l, err := Parse([]byte(`{
  "version": 1, "id": "summaries",
  "fixture": {"baseUrl": "http://127.0.0.1:4310"},
  "operations": [
    {"op": "navigate", "request": {"url": "/form"}},
    {"op": "act", "request": {"action": "type", "target": {"role": "textbox", "name": "User", "exact": true}, "text": "alice"}},
    {"op": "act", "request": {"action": "type", "target": {"ref": "e7"}, "text": {"env": "PORTAL_PASSWORD"}}},
    {"op": "act", "request": {"action": "select", "target": {"role": "combobox", "name": "Plan", "exact": false}, "option": "Pro"}},
    {"op": "act", "request": {"action": "press", "target": {"role": "textbox", "name": "User"}, "key": "Enter"}},
    {"op": "act", "request": {"action": "click", "target": {"role": "button", "name": "Sign in"}}},
    {"op": "assert", "request": {"kind": "titleContains", "value": "Welcome"}},
    {"op": "assert", "request": {"kind": "textContains", "value": "Error", "not": true}},
    {"op": "step", "step": {"instruction": "Password", "action": "type", "text": {"env": "PORTAL_PASSWORD"},
      "postcondition": {"kind": "text", "value": "Signed in"}}},
    {"op": "read"},
    {"op": "act", "words": "Open the settings"}
  ]}`))
	if err != nil {
		t.Fatal(err)
	}
	want := [][2]string{
		{"http://127.0.0.1:4310/form", ""},
		{`textbox "User"`, `"alice"`},
		{"ref e7", "[secret] (env PORTAL_PASSWORD)"},
		{`combobox ~"Plan"`, `option "Pro"`},
		{`textbox ~"User"`, `key "Enter"`},
		{`button ~"Sign in"`, ""},
		{"", `titleContains "Welcome"`},
		{"", `not textContains "Error"`},
		{`"Password"`, `type [secret] (env PORTAL_PASSWORD) then text "Signed in"`},
		{"", ""},
		{`"Open the settings"`, "one action"},
	}
	for i, w := range want {
		or := newOperationReport(i, &l.Operations[i])
		if or.Target != w[0] || or.Value != w[1] || or.Status != StatusSkipped {
			t.Errorf("operations[%d] (%s): target %q value %q status %s; want %q %q", i, or.Op, or.Target, or.Value, or.Status, w[0], w[1])
		}
	}
	failed := OperationReport{Op: "assert", Status: StatusFailed, Value: `titleContains "Welcome"`}
	if failed.Expected() != `titleContains "Welcome"` {
		t.Errorf("Expected() = %q", failed.Expected())
	}
	if failed.Status = StatusPassed; failed.Expected() != "" {
		t.Error("a passed assertion has no expected value to show")
	}
}
