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
// ConsoleMessageChars, NetworkPathChars, PendingRequests): summaries, never bodies, queries
// or fragments.

// diagnostics keeps a tab's console and network summaries for captureEvidence: identical
// console messages are counted, and of the network only what went wrong (failed, blocked,
// HTTP error) with the origin and path of its URL, its status and its size.
type diagnostics struct {
	// clip bounds a console message (Worker.clipScrubbed: a cut never splits a typed secret).
	clip     func(text string, n int) string
	mu       sync.Mutex
	console  tally[transport.ConsoleEntry]
	network  tally[transport.NetworkEntry]
	requests map[network.RequestID]requestSeen
}

// requestSeen is a request in flight: what the summary says of it, and the key of its entry
// once it has one (an HTTP error, whose size is filled in when it finishes loading).
type requestSeen struct{ method, origin, path, entry string }

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

// addNetwork counts a request that went wrong and returns its entry's key.
func (d *diagnostics) addNetwork(method, origin, path string, status int, category string) string {
	d.mu.Lock()
	defer d.mu.Unlock()
	key := method + " " + origin + path + " " + category + " " + strconv.Itoa(status)
	d.network.add(key, transport.NetworkEntry{Method: method, URL: origin, Path: path, Status: status, Category: category, Count: 1},
		func(e *transport.NetworkEntry) *int { return &e.Count })
	return key
}

// sized records an entry's response size (encoded bytes) when it has none yet: the first
// of identical requests gives it.
func (d *diagnostics) sized(key string, size float64) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if i, ok := d.network.at[key]; ok && d.network.entries[i].Size == 0 && size > 0 {
		d.network.entries[i].Size = int64(size)
	}
}

// urlPath is an http(s) URL's path as evidence keeps it: no query or fragment, clipped to
// budgets.NetworkPathChars with any secret masked; "" for other schemes (a data: URL's
// "path" is its content).
func (d *diagnostics) urlPath(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return ""
	}
	return d.clip(u.EscapedPath(), budgets.NetworkPathChars)
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
				ok = next(finished, d.loadingFinished)
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
		d.requests[ev.RequestID] = requestSeen{method: ev.Request.Method, origin: originOrScheme(ev.Request.URL), path: d.urlPath(ev.Request.URL)}
	}
	d.mu.Unlock()
}

// responseReceived counts an HTTP error at once (the response URL: after redirects) and
// keeps the request until it finishes loading, for its size.
func (d *diagnostics) responseReceived(ev *network.ResponseReceivedReply) {
	if ev.Response.Status >= 400 && !browserChrome(ev.Response.URL) {
		d.mu.Lock()
		r := d.requests[ev.RequestID]
		d.mu.Unlock()
		key := d.addNetwork(r.method, originOrScheme(ev.Response.URL), d.urlPath(ev.Response.URL), ev.Response.Status, "http_error")
		d.mu.Lock()
		if r, ok := d.requests[ev.RequestID]; ok {
			r.entry = key
			d.requests[ev.RequestID] = r
		}
		d.mu.Unlock()
	}
}

func (d *diagnostics) loadingFinished(ev *network.LoadingFinishedReply) {
	if r := d.take(ev.RequestID); r.entry != "" {
		d.sized(r.entry, ev.EncodedDataLength)
	}
}

func (d *diagnostics) loadingFailed(ev *network.LoadingFailedReply) {
	r := d.take(ev.RequestID)
	if r.entry != "" {
		return // already counted as the HTTP error it answered; its body did not arrive whole
	}
	category := "failed"
	if ev.BlockedReason != "" || strings.Contains(ev.ErrorText, "BLOCKED_BY_CLIENT") {
		category = "blocked"
	}
	if ev.Canceled != nil && *ev.Canceled && category == "failed" {
		return // aborted by the page or a navigation: not a failure of the site
	}
	d.addNetwork(r.method, r.origin, r.path, 0, category)
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
