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

	"github.com/fastbrowser/fastbrowser/transport"
)

// Bounds of what a tab keeps for evidence: summaries, never bodies or full URLs.
const (
	maxConsoleEntries = 100
	maxNetworkEntries = 100
	maxConsoleChars   = 300
	maxPendingURLs    = 2048
)

// diagnostics keeps a tab's console and network summaries for captureEvidence: identical
// console messages are counted, and of the network only what went wrong (failed, blocked,
// HTTP error) with the origin of its URL.
type diagnostics struct {
	mu        sync.Mutex
	console   []transport.ConsoleEntry
	consoleAt map[string]int
	cTrunc    bool
	network   []transport.NetworkEntry
	networkAt map[string]int
	nTrunc    bool
	requests  map[network.RequestID]requestSeen
}

type requestSeen struct{ method, origin string }

func newDiagnostics() *diagnostics {
	return &diagnostics{consoleAt: map[string]int{}, networkAt: map[string]int{}, requests: map[network.RequestID]requestSeen{}}
}

func (d *diagnostics) addConsole(level, msg string) {
	msg = transport.ClipChars(msg, maxConsoleChars)
	key := level + "\x00" + msg
	d.mu.Lock()
	defer d.mu.Unlock()
	if i, ok := d.consoleAt[key]; ok {
		d.console[i].Count++
		return
	}
	if len(d.console) >= maxConsoleEntries {
		d.cTrunc = true
		return
	}
	d.consoleAt[key] = len(d.console)
	d.console = append(d.console, transport.ConsoleEntry{Level: level, Message: msg, Count: 1})
}

func (d *diagnostics) addNetwork(method, origin string, status int, category string) {
	key := method + " " + origin + " " + category + " " + strconv.Itoa(status)
	d.mu.Lock()
	defer d.mu.Unlock()
	if i, ok := d.networkAt[key]; ok {
		d.network[i].Count++
		return
	}
	if len(d.network) >= maxNetworkEntries {
		d.nTrunc = true
		return
	}
	d.networkAt[key] = len(d.network)
	d.network = append(d.network, transport.NetworkEntry{Method: method, URL: origin, Status: status, Category: category, Count: 1})
}

func (d *diagnostics) summaries() (transport.ConsoleSummary, transport.NetworkSummary) {
	d.mu.Lock()
	defer d.mu.Unlock()
	c := transport.ConsoleSummary{Entries: append([]transport.ConsoleEntry{}, d.console...), Truncated: d.cTrunc}
	n := transport.NetworkSummary{Entries: append([]transport.NetworkEntry{}, d.network...), Truncated: d.nTrunc}
	return c, n
}

// watchDiagnostics turns on the Runtime and Network domains of a tab and drains their events
// into the tab's summaries until ctx ends.
func watchDiagnostics(ctx context.Context, c *cdp.Client, d *diagnostics) error {
	consoleEv, err := c.Runtime.ConsoleAPICalled(ctx)
	if err != nil {
		return err
	}
	thrown, err := c.Runtime.ExceptionThrown(ctx)
	if err != nil {
		return err
	}
	sent, err := c.Network.RequestWillBeSent(ctx)
	if err != nil {
		return err
	}
	responded, err := c.Network.ResponseReceived(ctx)
	if err != nil {
		return err
	}
	failed, err := c.Network.LoadingFailed(ctx)
	if err != nil {
		return err
	}
	finished, err := c.Network.LoadingFinished(ctx)
	if err != nil {
		return err
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
		for {
			select {
			case <-sent.Ready():
				ev, err := sent.Recv()
				if err != nil {
					return
				}
				d.mu.Lock()
				if len(d.requests) < maxPendingURLs {
					d.requests[ev.RequestID] = requestSeen{method: ev.Request.Method, origin: originOrScheme(ev.Request.URL)}
				}
				d.mu.Unlock()
			case <-responded.Ready():
				ev, err := responded.Recv()
				if err != nil {
					return
				}
				if ev.Response.Status >= 400 && !browserChrome(ev.Response.URL) {
					r := d.take(ev.RequestID)
					d.addNetwork(r.method, originOrScheme(ev.Response.URL), ev.Response.Status, "http_error")
				}
			case <-failed.Ready():
				ev, err := failed.Recv()
				if err != nil {
					return
				}
				r := d.take(ev.RequestID)
				category := "failed"
				if ev.BlockedReason != "" || strings.Contains(ev.ErrorText, "BLOCKED_BY_CLIENT") {
					category = "blocked"
				}
				if ev.Canceled != nil && *ev.Canceled && category == "failed" {
					continue // aborted by the page or a navigation: not a failure of the site
				}
				d.addNetwork(r.method, r.origin, 0, category)
			case <-finished.Ready():
				ev, err := finished.Recv()
				if err != nil {
					return
				}
				d.take(ev.RequestID)
			case <-ctx.Done():
				return
			}
		}
	}()
	return nil
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
