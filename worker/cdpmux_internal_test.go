package worker

import (
	"context"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/mafredri/cdp"
	cdpruntime "github.com/mafredri/cdp/protocol/runtime"
	"github.com/mafredri/cdp/protocol/target"

	"github.com/fastbrowser/fastbrowser/runtime/chromium"
)

// flatTab opens a page in a context of its own and attaches a flat session to it on m.
func flatTab(t testing.TB, m *cdpMux, bc *cdp.Client) (target.ID, *muxSession, *cdp.Client) {
	t.Helper()
	ctx := context.Background()
	bctx, err := bc.Target.CreateBrowserContext(ctx, target.NewCreateBrowserContextArgs())
	if err != nil {
		t.Fatal(err)
	}
	tgt, err := bc.Target.CreateTarget(ctx, target.NewCreateTargetArgs("about:blank").SetBrowserContextID(bctx.BrowserContextID))
	if err != nil {
		t.Fatal(err)
	}
	r, err := bc.Target.AttachToTarget(ctx, target.NewAttachToTargetArgs(tgt.TargetID).SetFlatten(true))
	if err != nil {
		t.Fatal(err)
	}
	s, c, err := m.open(ctx, r.SessionID)
	if err != nil {
		t.Fatal(err)
	}
	return tgt.TargetID, s, c
}

// TestFlatSessionsEndLikeSockets: two sessions on one socket keep their own calls and
// events apart; a closed target ends its session alone, with rpcc's closed-connection error
// (what the worker reads as the tab gone), while the browser connection lives; a killed
// browser ends every session the same way and the root's connection with it.
func TestFlatSessionsEndLikeSockets(t *testing.T) {
	b, err := chromium.Launch(context.Background(), chromium.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	m, root, bc, err := dialMux(ctx, b.WebSocketURL())
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	id1, _, c1 := flatTab(t, m, bc)
	_, _, c2 := flatTab(t, m, bc)
	for i, c := range []*cdp.Client{c1, c2} {
		want := []string{"one", "two"}[i]
		if _, err := c.Runtime.Evaluate(ctx, cdpruntime.NewEvaluateArgs("window.name = '"+want+"'")); err != nil {
			t.Fatal(err)
		}
	}
	for i, c := range []*cdp.Client{c1, c2} {
		got, err := c.Runtime.Evaluate(ctx, cdpruntime.NewEvaluateArgs("window.name").SetReturnByValue(true))
		if want := []string{`"one"`, `"two"`}[i]; err != nil || string(got.Result.Value) != want {
			t.Fatalf("session %d answered %s %v, want %s", i+1, got.Result.Value, err, want)
		}
	}

	if _, err := bc.Target.CloseTarget(ctx, target.NewCloseTargetArgs(id1)); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		_, err := c1.Runtime.Evaluate(ctx, cdpruntime.NewEvaluateArgs("1"))
		if connClosed(err) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("a closed target's session still answers: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if _, err := c2.Runtime.Evaluate(ctx, cdpruntime.NewEvaluateArgs("1")); err != nil {
		t.Fatalf("the other session ended with the closed target's: %v", err)
	}
	if root.Context().Err() != nil {
		t.Fatal("the browser connection ended with a target's session")
	}

	if err := syscall.Kill(b.Pid(), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	select {
	case <-root.Context().Done():
	case <-ctx.Done():
		t.Fatal("the browser connection outlived the browser")
	}
	if _, err := c2.Runtime.Evaluate(ctx, cdpruntime.NewEvaluateArgs("1")); !connClosed(err) {
		t.Fatalf("a session outlived the browser: %v", err)
	}
}

// BenchmarkFlatSessionCall compares one Runtime.evaluate round trip on a flat session over
// the private socket a worker gets to the browser's gate (socket-µs: the way every worker
// goes) with the same call over the gate's token websocket (websocket-µs: how a --worker command
// or an attached client goes), alternating inside each iteration.
func BenchmarkFlatSessionCall(b *testing.B) {
	br, err := chromium.Launch(context.Background(), chromium.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer br.Close()
	ctx := context.Background()
	stream, err := br.Dial(ctx)
	if err != nil {
		b.Fatal(err)
	}
	sm, sroot, sbc, err := dialMuxStream(ctx, stream)
	if err != nil {
		b.Fatal(err)
	}
	defer sroot.Close()
	_, _, page := flatTab(b, sm, sbc)
	m, root, bc, err := dialMux(ctx, br.WebSocketURL())
	if err != nil {
		b.Fatal(err)
	}
	defer root.Close()
	_, _, flat := flatTab(b, m, bc)
	args := cdpruntime.NewEvaluateArgs("document.title").SetReturnByValue(true)
	var onPage, onFlat []time.Duration
	b.ResetTimer()
	for range b.N {
		t0 := time.Now()
		if _, err := page.Runtime.Evaluate(ctx, args); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		if _, err := flat.Runtime.Evaluate(ctx, args); err != nil {
			b.Fatal(err)
		}
		onPage, onFlat = append(onPage, t1.Sub(t0)), append(onFlat, time.Since(t1))
	}
	b.StopTimer()
	mp, mf := medianOf(onPage), medianOf(onFlat)
	b.ReportMetric(float64(mp.Microseconds()), "socket-µs")
	b.ReportMetric(float64(mf.Microseconds()), "websocket-µs")
	b.ReportMetric(float64(mf)/float64(mp), "ratio")
}

func medianOf(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}
