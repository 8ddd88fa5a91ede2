package runtime_test

import (
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/transport"
)

// TestCallLeavesTheCallersRequestAlone: the runtime translates tab handles and resolves
// {"env":…} text on its own copy; the caller's request comes back as it went in (it once
// came back holding the worker's target id and the resolved secret).
func TestCallLeavesTheCallersRequestAlone(t *testing.T) {
	t.Parallel()
	const secret = "OWN-COPY-SECRET-42"
	site := runtimetest.Fixture()
	defer site.Close()
	rt := runtimetest.OpenWith(t, runtimetest.Options{CDPURL: browserURL(t), LookupEnv: func(name string) (string, bool) {
		return secret, name == "OWN_COPY_TOKEN"
	}})
	nav := &transport.Navigate{URL: site.URL + "/echo"}
	if _, err := rt.Call(bg, nav, nil); err != nil {
		t.Fatal(err)
	}
	nav.Tab = "t1" // the handle the first navigate issued
	if _, err := rt.Call(bg, nav, nil); err != nil {
		t.Fatal(err)
	}
	if *nav != (transport.Navigate{Tab: "t1", URL: site.URL + "/echo"}) {
		t.Fatalf("navigate request changed by the call: %+v", *nav)
	}
	text := transport.FromEnv("OWN_COPY_TOKEN")
	act := &transport.Act{Tab: "t1", Action: transport.ActType, Target: transport.Target{Role: "textbox", Name: transport.Match("Token")}, Text: text}
	if _, err := rt.Call(bg, act, nil); err != nil {
		t.Fatal(err)
	}
	if act.Tab != "t1" || act.Text != text || act.Text.EnvName() != "OWN_COPY_TOKEN" || act.Text.Value() != "" || act.SecretText {
		t.Fatalf("act request changed by the call: tab %q, env %q, secretText %v", act.Tab, act.Text.EnvName(), act.SecretText)
	}
}
