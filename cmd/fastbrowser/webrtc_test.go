package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fastbrowser/fastbrowser/runtime/process/proctest"
	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/scenarios/fixture"
)

// TestRunWebRTCAllow: egress.webrtc "allow" in `run`. Under the fixture's own (restricted)
// policy the scenario runs in the run's shared browser, whose profile turns WebRTC's UDP
// off and whose egress proxy refuses the canary: pages create connections, nothing reaches
// the canary. Under "*" the run launches a second browser with UDP on, and the canary hears
// from the page over UDP and TCP. Each scenario waits for the page's "done", 2 s after its
// connections started, before the run ends.
func TestRunWebRTCAllow(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	canary, err := fixture.NewNetCanary()
	if err != nil {
		t.Fatal(err)
	}
	defer canary.Close()
	page := strings.TrimPrefix(fixture.WebRTCURL(site.URL, canary), site.URL)
	scenarioFile := func(name, origins string) string {
		path := filepath.Join(t.TempDir(), name+".json")
		doc := fmt.Sprintf(`{"version":1,"id":%q,
  "fixture":{"baseUrl":%q,"server":{"mode":"external","readiness":{"url":%q}}},%s
  "egress":{"webrtc":"allow"},
  "operations":[
    {"op":"navigate","request":{"url":%q}},
    {"op":"act","request":{"action":"click","target":{"role":"button","name":"Try WebRTC","exact":true}}},
    {"op":"assert","request":{"kind":"textContains","value":"top=created webkit=created frame=created popup=created"}},
    {"op":"assert","request":{"kind":"textContains","value":"popup=created; done"}}]}`,
			name, site.URL, site.URL+"/health", origins, page)
		if err := os.WriteFile(path, []byte(doc), 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}

	res := runCLI(t, nil, "run", "--out", filepath.Join(t.TempDir(), "restricted"), scenarioFile("webrtc-restricted", ""))
	if res.code != 0 {
		t.Fatalf("restricted: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	if canary.Packets() != 0 || canary.Connections() != 0 {
		t.Fatalf("restricted: the canary got %d UDP packets and %d TCP connections", canary.Packets(), canary.Connections())
	}

	res = runCLI(t, nil, "run", "--out", filepath.Join(t.TempDir(), "any"), scenarioFile("webrtc-any", `"allowedOrigins":["*"],`))
	if res.code != 0 {
		t.Fatalf(`"*": exit %d\n%s%s`, res.code, res.stdout, res.stderr)
	}
	// The run has ended and its browser is gone: what arrived, arrived during the run.
	if !proctest.PollUntil(5*time.Second, func() bool { return canary.Packets() > 0 }) {
		t.Fatalf(`"*": the canary got %d UDP packets and %d TCP connections`, canary.Packets(), canary.Connections())
	}
	t.Logf(`"*": the canary got %d UDP packets and %d TCP connections`, canary.Packets(), canary.Connections())
}
