package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
)

// spinPage's button holds the page's main thread for 12.5 s when clicked, so an act on it
// cannot end sooner: the act's own check that the click landed needs that thread. That is
// past both the default request budget (10 s, the worker's bound on act) and the client's
// default wait for an act (12 s).
const spinPage = `<!doctype html><title>Spin</title>
<button id="b">Spin</button><p id="out">idle</p>
<script>
document.getElementById("b").addEventListener("click", function () {
  var start = performance.now();
  while (performance.now() - start < 12500) {}
  document.getElementById("out").textContent = "spun " + Math.round(performance.now() - start) + " ms";
});
</script>`

// TestServeActTimeoutMs: through the real `fastbrowser serve`, an act whose frame carries
// "timeoutMs":20000 succeeds on a page that keeps it busy 12.5 s; one over the 120 s ceiling
// is refused budget_exceeded at "timeoutMs" without acting.
func TestServeActTimeoutMs(t *testing.T) {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(spinPage))
	}))
	defer site.Close()
	b, err := runtimetest.Browser()
	if err != nil {
		t.Fatal(err)
	}
	input := strings.Join([]string{
		`{"v":1,"id":"nav","op":"navigate","request":{"url":"` + site.URL + `/"}}`,
		`{"v":1,"id":"over","op":"act","timeoutMs":120001,"request":{"action":"click","target":{"role":"button","name":"Spin"}}}`,
		`{"v":1,"id":"act","op":"act","timeoutMs":20000,"request":{"action":"click","target":{"role":"button","name":"Spin"}}}`,
		`{"v":1,"id":"spun","op":"assert","request":{"kind":"textContains","value":"spun 125","wait":"none"}}`,
		`{"v":1,"id":"close","op":"close"}`,
	}, "\n") + "\n"
	bin, _ := runtimetest.Binary()
	cmd := exec.Command(bin, "serve", "--cdp-url", b.WebSocketURL(), "--allowed-origin", site.URL)
	cmd.Stdin = strings.NewReader(input)
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	if err := cmd.Run(); err != nil {
		t.Fatalf("serve: %v\n%s", err, stdout.String())
	}
	type frame struct {
		ID     string          `json:"id"`
		Result json.RawMessage `json:"result"`
		Error  *struct{ Code, Path, MutationState, Message string }
	}
	got := map[string]frame{}
	for _, l := range strings.Split(strings.TrimSpace(stdout.String()), "\n")[1:] {
		var f frame
		if err := json.Unmarshal([]byte(l), &f); err != nil {
			t.Fatalf("not a frame: %q", l)
		}
		got[f.ID] = f
	}
	if f := got["over"]; f.Error == nil || f.Error.Code != "budget_exceeded" || f.Error.Path != "timeoutMs" || f.Error.MutationState != "not_attempted" {
		t.Fatalf("timeoutMs over the ceiling: %+v", f.Error)
	}
	if f := got["act"]; f.Error != nil || !strings.Contains(string(f.Result), `"mutationState":"verified"`) {
		t.Fatalf("act with timeoutMs 20000 on a 12.5 s page: %+v %s", f.Error, f.Result)
	}
	for _, id := range []string{"nav", "spun", "close"} {
		if f := got[id]; f.Error != nil || f.Result == nil {
			t.Fatalf("%s: %+v", id, f.Error)
		}
	}
}
