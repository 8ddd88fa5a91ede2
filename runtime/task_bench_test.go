package runtime_test

import (
	"strings"
	"testing"
	"time"

	"github.com/fastbrowser/fastbrowser/runtime/model"
	"github.com/fastbrowser/fastbrowser/runtime/model/modeltest"
	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/transport"
)

// BenchmarkTaskThreeTurns measures what the semantic loop costs around the model: a
// three-turn task (locate, type, click; the scripted model answers at once) against the
// same work as plain calls (observe, type, click, assert), alternated on the same page of
// the same session so machine noise hits both alike. It reports each path's median and the
// ratio; the difference is the loop's own observations, settlement and postcondition reads.
func BenchmarkTaskThreeTurns(b *testing.B) {
	site, partner := taskSite(nil)
	defer site.Close()
	defer partner.Close()
	srv := modeltest.Start(b)
	cfg := srv.Config(model.ProviderOpenAI, "")
	br, err := runtimetest.Browser()
	if err != nil {
		b.Fatal(err)
	}
	rt := runtimetest.OpenWith(b, runtimetest.Options{CDPURL: br.WebSocketURL(), AllowedOrigins: []string{site.URL}, Model: &cfg})
	load := func() (user, signIn string) {
		if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + "/"}); err != nil {
			b.Fatal(err)
		}
		return refFor(b, rt, "textbox", "Username"), refFor(b, rt, "button", "Sign in")
	}
	var viaTask, plain []time.Duration
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		user, signIn := load()
		srv.Script(
			modeltest.Step{Tool: "locate", Args: map[string]string{"instruction": "Username", "action": "type"}},
			modeltest.Step{Tool: "act", Args: map[string]string{"action": "type", "ref": user, "text": "alice"}},
			modeltest.Step{Tool: "act", Args: map[string]string{"action": "click", "ref": signIn}},
		)
		b.StartTimer()
		t0 := time.Now()
		res, err := transport.Dispatch(bg, rt, taskOf("Sign in as alice"))
		if err != nil || len(res.Turns) != 3 {
			b.Fatalf("task: %v", err)
		}
		viaTask = append(viaTask, time.Since(t0))
		b.StopTimer()
		user, signIn = load()
		b.StartTimer()
		t0 = time.Now()
		if _, err := transport.Dispatch(bg, rt, transport.Observe{MaxNodes: 400}); err != nil {
			b.Fatal(err)
		}
		for _, a := range []transport.Act{{Action: transport.ActType, Target: transport.Target{Ref: user}, Text: transport.Literal("alice")}, {Action: transport.ActClick, Target: transport.Target{Ref: signIn}}} {
			if _, err := transport.Dispatch(bg, rt, a); err != nil {
				b.Fatal(err)
			}
		}
		if _, err := transport.Dispatch(bg, rt, transport.Assert{Kind: transport.AssertTextContains, Value: "Welcome, alice"}); err != nil {
			b.Fatal(err)
		}
		plain = append(plain, time.Since(t0))
	}
	b.StopTimer()
	mt, mp := median(viaTask), median(plain)
	b.ReportMetric(float64(mt.Milliseconds()), "task-ms")
	b.ReportMetric(float64(mp.Milliseconds()), "plain-ms")
	b.ReportMetric(float64(mt)/float64(mp), "ratio")
	if !strings.Contains(string(srv.Requests()[0].Body), "Username") {
		b.Fatal("the model was not shown the page")
	}
}
