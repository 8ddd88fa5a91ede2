package worker

import (
	"context"
	"encoding/json"
	"net/url"
	"strconv"
	"strings"
	"sync"

	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/network"
	cdpruntime "github.com/mafredri/cdp/protocol/runtime"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/transport"
)

// What a tab keeps for evidence is bounded (budgets.ConsoleEntries, NetworkEntries,
// ConsoleMessageChars, PendingRequests): summaries, never bodies or full URLs.

// diagnostics keeps a tab's console and network summaries for captureEvidence: identical
// console messages are counted, and of the network only what went wrong (failed, blocked,
// HTTP error) with the origin of its URL.
type diagnostics struct {
	// clip bounds a console message (Worker.clipScrubbed: a cut never splits a typed secret).
	clip     func(text string, n int) string
	mu       sync.Mutex
	console  tally[transport.ConsoleEntry]
	network  tally[transport.NetworkEntry]
	requests map[network.RequestID]requestSeen
}

type requestSeen struct{ method, origin string }

func newDiagnostics(clip func(text string, n int) string) *diagnostics {
	return &diagnostics{clip: clip,
		console:  tally[transport.ConsoleEntry]{at: map[string]int{}, limit: budgets.ConsoleEntries},
		network:  tally[transport.NetworkEntry]{at: map[string]int{}, limit: budgets.NetworkEntries},
		requests: map[network.RequestID]requestSeen{}}
}

// tally keeps up to limit distinct entries in the order first seen; a repeat (same key) is
// counted on its entry, and an entry past the limit only marks the tally truncated.
type tally[E any] struct {
	entries   []E
	at        map[string]int
	limit     int
	truncated bool
}

// add records e under key; count is e's Count field, increased for a repeat.
func (t *tally[E]) add(key string, e E, count func(*E) *int) {
	if i, ok := t.at[key]; ok {
		*count(&t.entries[i])++
		return
	}
	if len(t.entries) >= t.limit {
		t.truncated = true
		return
	}
	t.at[key] = len(t.entries)
	t.entries = append(t.entries, e)
}

// copied returns a copy of the entries (never nil).
func (t *tally[E]) copied() []E { return append([]E{}, t.entries...) }

func (d *diagnostics) addConsole(level, msg string) {
	msg = d.clip(msg, budgets.ConsoleMessageChars)
	d.mu.Lock()
	defer d.mu.Unlock()
	d.console.add(level+"\x00"+msg, transport.ConsoleEntry{Level: level, Message: msg, Count: 1},
		func(e *transport.ConsoleEntry) *int { return &e.Count })
}

func (d *diagnostics) addNetwork(method, origin string, status int, category string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.network.add(method+" "+origin+" "+category+" "+strconv.Itoa(status), transport.NetworkEntry{Method: method, URL: origin, Status: status, Category: category, Count: 1},
		func(e *transport.NetworkEntry) *int { return &e.Count })
}

func (d *diagnostics) summaries() (transport.ConsoleSummary, transport.NetworkSummary) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return transport.ConsoleSummary{Entries: d.console.copied(), Truncated: d.console.truncated},
		transport.NetworkSummary{Entries: d.network.copied(), Truncated: d.network.truncated}
}

// watchDiagnostics turns on the Runtime and Network domains of a tab and drains their events
// into the tab's summaries until ctx ends.
func watchDiagnostics(ctx context.Context, c *cdp.Client, d *diagnostics) error {
	o := &streams{ctx: ctx}
	consoleEv := openStream(o, c.Runtime.ConsoleAPICalled)
	thrown := openStream(o, c.Runtime.ExceptionThrown)
	sent := openStream(o, c.Network.RequestWillBeSent)
	responded := openStream(o, c.Network.ResponseReceived)
	failed := openStream(o, c.Network.LoadingFailed)
	finished := openStream(o, c.Network.LoadingFinished)
	if o.err != nil {
		return o.err
	}
	// Request, response, failure and completion events are delivered in the order Chromium
	// sent them, so a failure always finds its request and a finished request is forgotten.
	if err := cdp.Sync(sent, responded, failed, finished); err != nil {
		return err
	}
	if err := c.Runtime.Enable(ctx); err != nil {
		return err
	}
	// No bodies are kept by Chromium for us: we never ask for them.
	if err := c.Network.Enable(ctx, network.NewEnableArgs().SetMaxTotalBufferSize(0).SetMaxResourceBufferSize(0).SetMaxPostDataSize(0)); err != nil {
		return err
	}
	drain(consoleEv, func(ev *cdpruntime.ConsoleAPICalledReply) { d.addConsole(consoleLevel(ev.Type), consoleText(ev.Args)) })
	drain(thrown, func(ev *cdpruntime.ExceptionThrownReply) {
		msg := ev.ExceptionDetails.Text
		if ex := ev.ExceptionDetails.Exception; ex != nil && ex.Description != nil {
			msg += " " + firstLine(*ex.Description)
		}
		d.addConsole("error", msg)
	})
	go func() {
		defer sent.Close()
		defer responded.Close()
		defer failed.Close()
		defer finished.Close()
		for ok := true; ok; {
			select {
			case <-sent.Ready():
				ok = next(sent, d.requestSent)
			case <-responded.Ready():
				ok = next(responded, d.responseReceived)
			case <-failed.Ready():
				ok = next(failed, d.loadingFailed)
			case <-finished.Ready():
				ok = next(finished, func(ev *network.LoadingFinishedReply) { d.take(ev.RequestID) })
			case <-ctx.Done():
				return
			}
		}
	}()
	return nil
}

func (d *diagnostics) requestSent(ev *network.RequestWillBeSentReply) {
	d.mu.Lock()
	if len(d.requests) < budgets.PendingRequests {
		d.requests[ev.RequestID] = requestSeen{method: ev.Request.Method, origin: originOrScheme(ev.Request.URL)}
	}
	d.mu.Unlock()
}

func (d *diagnostics) responseReceived(ev *network.ResponseReceivedReply) {
	if ev.Response.Status >= 400 && !browserChrome(ev.Response.URL) {
		r := d.take(ev.RequestID)
		d.addNetwork(r.method, originOrScheme(ev.Response.URL), ev.Response.Status, "http_error")
	}
}

func (d *diagnostics) loadingFailed(ev *network.LoadingFailedReply) {
	r := d.take(ev.RequestID)
	category := "failed"
	if ev.BlockedReason != "" || strings.Contains(ev.ErrorText, "BLOCKED_BY_CLIENT") {
		category = "blocked"
	}
	if ev.Canceled != nil && *ev.Canceled && category == "failed" {
		return // aborted by the page or a navigation: not a failure of the site
	}
	d.addNetwork(r.method, r.origin, 0, category)
}

func (d *diagnostics) take(id network.RequestID) requestSeen {
	d.mu.Lock()
	defer d.mu.Unlock()
	r := d.requests[id]
	delete(d.requests, id)
	return r
}

func consoleLevel(t string) string {
	switch t {
	case "error", "assert":
		return "error"
	case "warning":
		return "warning"
	case "debug":
		return "debug"
	case "info":
		return "info"
	}
	return "log"
}

// consoleText renders console arguments as the console would show their primitive values;
// objects give their short description only.
func consoleText(args []cdpruntime.RemoteObject) string {
	parts := make([]string, 0, len(args))
	for _, a := range args {
		switch {
		case a.Value != nil && a.Type == "string":
			var s string
			if err := json.Unmarshal(a.Value, &s); err == nil {
				parts = append(parts, s)
				continue
			}
			parts = append(parts, string(a.Value))
		case a.Value != nil:
			parts = append(parts, string(a.Value))
		case a.Description != nil:
			parts = append(parts, firstLine(*a.Description))
		default:
			parts = append(parts, a.Type)
		}
	}
	return strings.Join(parts, " ")
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// browserChrome reports a request the browser makes on its own for the page (the favicon):
// its failure says nothing about the site under test.
func browserChrome(raw string) bool {
	u, err := url.Parse(raw)
	return err == nil && u.Path == "/favicon.ico"
}
