package worker

import (
	"context"
	"fmt"
	"net/url"
	"strings"

	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/devtool"
	"github.com/mafredri/cdp/rpcc"

	"github.com/fastbrowser/fastbrowser/budgets"
)

// rpccWriteBuffer is the largest CDP message we send unfragmented: Chrome does not accept
// fragmented websocket messages, and our largest are the fixed page scripts (a few KiB).
const rpccWriteBuffer = budgets.CDPMessageBytes

// browserURL resolves --cdp-url to a browser websocket URL: a DevTools HTTP endpoint
// (http://host:port) is asked for /json/version; a ws(s)://…/devtools/browser/… URL is used
// as it is.
func browserURL(ctx context.Context, cdpURL string) (string, error) {
	u, err := url.Parse(cdpURL)
	if err != nil {
		return "", fmt.Errorf("--cdp-url is not a URL")
	}
	switch u.Scheme {
	case "ws", "wss":
		if !strings.Contains(u.Path, "/devtools/browser/") {
			return "", fmt.Errorf("--cdp-url websocket must be a browser endpoint (ws://host:port/devtools/browser/ID)")
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
	return "", fmt.Errorf("--cdp-url must be http(s)://host:port or ws(s)://host:port/devtools/browser/ID")
}

// pageURL is the per-target websocket of a page on the same DevTools server. A per-target
// socket is ≈3× faster per call than a nested session over the browser socket (CDP-NOTES).
func pageURL(browserWS string, targetID string) (string, error) {
	u, err := url.Parse(browserWS)
	if err != nil {
		return "", err
	}
	u.Path = "/devtools/page/" + targetID
	u.RawQuery = ""
	return u.String(), nil
}

func dial(ctx context.Context, wsURL string) (*rpcc.Conn, *cdp.Client, error) {
	conn, err := rpcc.DialContext(ctx, wsURL, rpcc.WithWriteBufferSize(rpccWriteBuffer))
	if err != nil {
		return nil, nil, err
	}
	return conn, cdp.NewClient(conn), nil
}
