package worker

import (
	"context"
	"fmt"
	"net/url"
	"strings"

	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/devtool"
	"github.com/mafredri/cdp/protocol/target"
	"github.com/mafredri/cdp/rpcc"

	"github.com/fastbrowser/fastbrowser/budgets"
)

// rpccWriteBuffer is the largest CDP message we send unfragmented: Chrome does not accept
// fragmented websocket messages, and our largest are the fixed page scripts (a few KiB).
const rpccWriteBuffer = budgets.CDPMessageBytes

// browserURL resolves --cdp-url to a browser websocket URL: a DevTools HTTP endpoint
// (http://host:port) is asked for /json/version; a ws(s) URL is used as it is, under any
// path: Chromium's /devtools/browser/ID, Selenium Grid 4's /session/ID/se/cdp, browserless's
// ws://host:3000?token=…. The worker needs nothing from the endpoint but that one browser
// websocket (cdpmux.go).
func browserURL(ctx context.Context, cdpURL string) (string, error) {
	u, err := url.Parse(cdpURL)
	if err != nil {
		return "", fmt.Errorf("--cdp-url is not a URL")
	}
	switch u.Scheme {
	case "ws", "wss":
		if u.Host == "" {
			return "", fmt.Errorf("--cdp-url websocket has no host")
		}
		if strings.Contains(u.Path, "/devtools/page/") {
			return "", fmt.Errorf("--cdp-url websocket is a page's (/devtools/page/ID), not the browser's")
		}
		return cdpURL, nil
	case "http", "https":
		v, err := devtool.New(strings.TrimRight(cdpURL, "/")).Version(ctx)
		if err != nil {
			return "", fmt.Errorf("the DevTools endpoint did not answer /json/version")
		}
		if v.WebSocketDebuggerURL == "" {
			return "", fmt.Errorf("the DevTools endpoint gave no browser websocket URL")
		}
		return v.WebSocketDebuggerURL, nil
	}
	return "", fmt.Errorf("--cdp-url must be http(s)://host:port or a ws(s):// browser websocket URL")
}

// openTab connects to a page target: a flat session on the browser socket (Target.
// attachToTarget with flatten), whose socket the tab then shares with its children.
func (w *Worker) openTab(ctx context.Context, id target.ID) (*cdpMux, *rpcc.Conn, *cdp.Client, error) {
	r, err := w.bc.Target.AttachToTarget(ctx, target.NewAttachToTargetArgs(id).SetFlatten(true))
	if err != nil {
		return nil, nil, nil, err
	}
	s, c, err := w.mux.open(w.lifetime.ctx, r.SessionID)
	if err != nil {
		return nil, nil, nil, err
	}
	return w.mux, s.conn, c, nil
}
