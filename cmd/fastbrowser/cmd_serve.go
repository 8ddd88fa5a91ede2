package main

import (
	"net/url"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/fastbrowser/fastbrowser/runtime"
	"github.com/fastbrowser/fastbrowser/runtime/registry"
	"github.com/fastbrowser/fastbrowser/scenario"
	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/secrets"
	"github.com/fastbrowser/fastbrowser/transport/wire"
)

func serveCommand(st *state) *cli.Command {
	return &cli.Command{
		Name:  "serve",
		Usage: "open one browser session and speak protocol v1 on stdin/stdout (for parent processes in any language)",
		UsageText: "fastbrowser serve [--browser PATH | --cdp-url URL] [--headed] [--allowed-origin ORIGIN ...] [--webrtc block|allow] [--artifacts DIR] [--secret-env NAME ...]\n" +
			"                [--binding-origin ORIGIN ... | --config FILE] [--model PROVIDER:MODEL [--model-base-url URL] [--model-api-key-env NAME]]",
		Flags: append(append(browserFlags(),
			&cli.StringSliceFlag{Name: "allowed-origin", Usage: "exact origin the session may load (repeat; default any http/https origin)"},
			&cli.StringFlag{Name: "artifacts", Usage: "private evidence store `DIR` (0700): enables captureEvidence and failure evidence"},
			secretEnvFlag,
			&cli.StringSliceFlag{Name: "binding-origin", Usage: "host many sessions over this connection, each opened by a task with openSession under origins inside this binding (repeat; \"*\" explicitly for any); see docs/protocol.md \"Multi-session serve\""},
			&cli.StringFlag{Name: "config", Usage: "config `FILE` (fastbrowser.json) whose \"session\" block sets a multi-session host's binding, idle and request timeouts, page_text budgets, handoff classes and ceilings (--binding-origin wins over its bindingOrigins); see docs/scenarios.md \"Session config\""},
			&cli.StringFlag{Name: "webrtc", Value: runtime.WebRTCBlock, Usage: "\"block\" makes RTCPeerConnection throw in every document; \"allow\" lets pages use WebRTC (under a restricted policy only TCP relays the egress proxy admits, on a browser fastbrowser launched)"},
		), modelFlags()...),
		// Every failure before the ready frame is also one error frame on stdout (serve_start.go),
		// a flag the parser rejects included: urfave/cli would print the help there instead.
		OnUsageError: func(_ *cli.Context, err error, _ bool) error {
			return refuseServe(st, nil, usageError("%v", err))
		},
		Action: func(c *cli.Context) error {
			var set *secrets.Set
			err := serveSession(c, st, &set)
			return refuseServe(st, set, err)
		},
	}
}

// serveSession is serve's action. Its errors before wire.Serve are start failures
// (refuseServe writes their frame); wire.Serve's own are servingError. *set is the
// session's secret set once it is known, so the start frame is scrubbed with it.
func serveSession(c *cli.Context, st *state, set **secrets.Set) error {
	if err := checkBrowserFlags(c); err != nil {
		return err
	}
	// Every session gets the model: the one serve opens, and each one a
	// multi-session host opens (registry copies opts).
	m, err := modelFromFlags(c)
	if err != nil {
		return err
	}
	webrtc := c.String("webrtc")
	if webrtc != runtime.WebRTCBlock && webrtc != runtime.WebRTCAllow {
		return usageError("--webrtc must be \"block\" or \"allow\"")
	}
	opts, done, err := sessionTemplate(c, st, c.StringSlice("allowed-origin"), "serve", set)
	if err != nil {
		return err
	}
	defer done()
	opts.Model, opts.WebRTC = m, webrtc
	binding, session, err := hostBinding(c)
	if err != nil {
		return err
	}
	if len(binding) > 0 {
		if len(c.StringSlice("allowed-origin")) > 0 {
			return usageError("--binding-origin (or the config's session.bindingOrigins) and --allowed-origin exclude each other: a multi-session host's sessions name their origins in openSession")
		}
		return serveMany(c, st, opts, binding, session)
	}
	if session != nil {
		return usageError("--config %s: its session block configures a multi-session host, which needs a binding: give --binding-origin or session.bindingOrigins", c.String("config"))
	}
	rt, err := runtime.Open(c.Context, opts)
	if err != nil {
		return startFailed(err, exitWith(exitFailed, "serve: %v", err))
	}
	defer rt.Close()
	err = wire.Serve(c.Context, st.stdin, st.stdout, rt, wire.ServerOptions{Ready: transport.ReadyInfo{Browser: rt.BrowserVersion()}})
	if err != nil {
		return servingError{exitWith(exitFailed, "serve: %v", err)}
	}
	return nil
}

// browserFlags are shared by every command that opens a browser session.
func browserFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "browser", Usage: "Chromium executable to launch (default /usr/bin/chromium)"},
		&cli.StringFlag{Name: "cdp-url", Usage: "attach to a running browser (http://host:port, or a browser websocket: ws://…/devtools/browser/…, Selenium Grid's ws://…/session/ID/se/cdp, browserless) instead of launching one"},
		&cli.BoolFlag{Name: "headed", Usage: "show the browser window (default headless)"},
	}
}

func runtimeOptions(c *cli.Context, st *state, origins []string) runtime.Options {
	return runtime.Options{
		Executable:     c.String("browser"),
		Headed:         c.Bool("headed"),
		CDPURL:         c.String("cdp-url"),
		AllowedOrigins: origins,
		WorkerPath:     st.workerPath,
		WorkerArgs:     workerArgs(st),
		OwnWorker:      true, // st.workerPath, if any, is a fastbrowser binary (tests)
		Log:            debugLog(st),
		LookupEnv:      st.lookup(),
	}
}

// checkBrowserFlags refuses a malformed --cdp-url before anything starts (exit 2).
func checkBrowserFlags(c *cli.Context) error {
	raw := c.String("cdp-url")
	if raw == "" {
		return nil
	}
	if c.String("browser") != "" {
		return usageError("--browser and --cdp-url exclude each other: launch a browser or attach to one")
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return usageError("--cdp-url %q is not a URL", raw)
	}
	switch u.Scheme {
	case "http", "https":
	case "ws", "wss":
		// Any path: Chromium's /devtools/browser/ID, Selenium Grid 4's /session/ID/se/cdp,
		// browserless's /?token=…; the worker needs only that one browser websocket. Only a
		// page's own websocket is known not to be one.
		if strings.Contains(u.Path, "/devtools/page/") {
			return usageError("--cdp-url: a page's websocket (/devtools/page/ID) is not a browser endpoint; give the browser's")
		}
	default:
		return usageError("--cdp-url must be http(s)://host:port or a ws(s):// browser websocket URL")
	}
	return nil
}

// workerArgs: when the worker is another executable (tests), it still needs the
// subcommand name.
func workerArgs(st *state) []string {
	if st.workerPath != "" {
		return []string{"worker"}
	}
	return nil
}

// serveConfig is the session block of --config FILE (nil without one). serve reads only a
// file it is given: it has no scenario to look for a fastbrowser.json from.
func serveConfig(c *cli.Context) (*registry.Config, error) {
	path := c.String("config")
	if path == "" {
		return nil, nil
	}
	cfg, err := scenario.LoadConfig(path)
	if err != nil {
		return nil, usageError("--config: %v", err)
	}
	return cfg.Session, nil
}
