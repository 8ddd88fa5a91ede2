package main

import (
	"log"

	"github.com/urfave/cli/v2"

	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/worker"
)

func workerCommand(st *state) *cli.Command {
	return &cli.Command{
		Name:      "worker",
		Usage:     "speak protocol v1 on stdin/stdout for one browser context (started by the runtime, or by any parent process)",
		UsageText: "fastbrowser worker --cdp-url URL [--allowed-origin ORIGIN ...]",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "cdp-url", Usage: "DevTools endpoint: http://host:port or a browser websocket URL (any path); required unless --await-browser"},
			&cli.BoolFlag{Name: "await-browser", Usage: "read the browser endpoint from the first line of stdin, {\"cdpUrl\":URL}, before protocol v1 (the runtime starts its own worker while it launches the browser)"},
			&cli.StringSliceFlag{Name: "allowed-origin", Usage: "exact origin the session may load (repeat; default any http/https origin)"},
			&cli.StringFlag{Name: "proxy-server", Usage: "route the worker's browser context through this HTTP proxy (http://127.0.0.1:PORT), loopback included"},
			&cli.BoolFlag{Name: "default-context", Usage: "run in the browser's default context (a persistent profile's, whose cookies and storage outlast the session) instead of a new one; --proxy-server then does not apply"},
			&cli.StringFlag{Name: "service-workers", Value: "block", Usage: "\"block\" refuses service worker registration and shared workers (their fetches escape interception); \"allow\" permits them"},
			&cli.StringFlag{Name: "webrtc", Value: "block", Usage: "\"block\" makes RTCPeerConnection throw in every document (ICE traffic escapes interception); \"allow\" leaves it to pages"},
			&cli.StringFlag{Name: "viewport", Usage: "lay every page out at `WIDTHxHEIGHT` CSS pixels (default: the browser's own size)"},
			&cli.StringFlag{Name: "test-id-attribute", Usage: "the `ATTRIBUTE` testId locators compare (default: data-testid)"},
			&cli.StringFlag{Name: "egress-subresources", Value: "fail", Usage: "a refused subresource: \"fail\" ends the operation with egress_denied, \"report\" only reports it"},
		},
		Action: func(c *cli.Context) error {
			if (c.String("cdp-url") == "") == !c.Bool("await-browser") {
				return usageError("give one of --cdp-url and --await-browser")
			}
			sub := c.String("egress-subresources")
			if sub != transport.SubresourcesFail && sub != transport.SubresourcesReport {
				return usageError("--egress-subresources must be \"fail\" or \"report\"")
			}
			sw := c.String("service-workers")
			if sw != "block" && sw != "allow" {
				return usageError("--service-workers must be \"block\" or \"allow\"")
			}
			rtc := c.String("webrtc")
			if rtc != "block" && rtc != "allow" {
				return usageError("--webrtc must be \"block\" or \"allow\"")
			}
			var vp transport.Viewport
			if s := c.String("viewport"); s != "" {
				var err error
				if vp, err = transport.ParseViewport(s); err != nil {
					return usageError("--viewport %s: %v", s, err)
				}
			}
			err := worker.Run(c.Context, worker.Options{
				Viewport:        vp,
				CDPURL:          c.String("cdp-url"),
				AllowedOrigins:  c.StringSlice("allowed-origin"),
				Subresources:    sub,
				ServiceWorkers:  sw,
				WebRTC:          rtc,
				ProxyServer:     c.String("proxy-server"),
				DefaultContext:  c.Bool("default-context"),
				AwaitBrowser:    c.Bool("await-browser"),
				TestIDAttribute: c.String("test-id-attribute"),
				In:              st.stdin,
				Out:             st.stdout,
				Log:             log.New(st.stderr, "worker: ", log.LstdFlags),
			})
			if err != nil {
				return exitWith(exitFailed, "worker: %v", err)
			}
			return nil
		},
	}
}
