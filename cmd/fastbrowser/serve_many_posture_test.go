package main

import (
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
)

// TestServeManyBatchDenialPosture (seed 000): a batch action refused by the origin policy
// before it reaches the browser — a navigate to an origin the session does not allow, a
// download of a link on another origin — ends the batch with posture egress_denied, the
// action's and the batch's, and the actions after it are skipped; the other origin is never
// reached.
func TestServeManyBatchDenialPosture(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	canary := runtimetest.NewCanary()
	defer canary.Close()
	s := startManyServe(t, "--binding-origin", site.URL, "--artifacts", t.TempDir())
	id := result(t, s.call("", "", "openSession", map[string]any{"task": "P", "allowedOrigins": []string{site.URL}}))["session"].(string)
	for _, c := range []struct {
		name    string
		actions []map[string]any
		denied  int // the index of the refused action
	}{
		{"off-origin navigate", []map[string]any{
			{"action": "navigate", "url": site.URL + "/about"},
			{"action": "navigate", "url": canary.URL + "/canary/page"},
			{"action": "page_text"},
		}, 1},
		{"off-site download", []map[string]any{
			{"action": "navigate", "url": site.URL + "/download/page?to=" + canary.URL},
			{"action": "download", "target": map[string]any{"role": "link", "name": "Offsite report"}},
			{"action": "page_text"},
		}, 1},
	} {
		r := result(t, s.call(id, "P", "batch", map[string]any{"actions": c.actions}))
		actions := r["actions"].([]any)
		denied := actions[c.denied].(map[string]any)
		if r["posture"] != "egress_denied" || denied["posture"] != "egress_denied" || denied["status"] != "failed" {
			t.Errorf("%s: batch posture %v, action %d %v; want egress_denied for both", c.name, r["posture"], c.denied, denied)
		}
		if st := actions[c.denied+1].(map[string]any)["status"]; st != "skipped" {
			t.Errorf("%s: the action after the denial is %v, want skipped", c.name, st)
		}
	}
	if canary.Hits() != 0 {
		t.Errorf("the other origin was reached: %v", canary.Paths())
	}
}
