package main

import (
	"os"

	"github.com/urfave/cli/v2"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/runtime"
	"github.com/fastbrowser/fastbrowser/runtime/mcpserver"
	"github.com/fastbrowser/fastbrowser/scenario/sessions"
	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/secrets"
)

// mcpCommand is `fastbrowser mcp`: the multi-session host that `serve --binding-origin`
// builds, spoken to as a Model Context Protocol server on stdin/stdout, or with --http over
// streamable HTTP on a loopback port that takes a bearer token (docs/mcp.md). stdout carries
// MCP's JSON-RPC alone (with --http, the one line saying where it listens); every log goes
// to stderr, scrubbed.
func mcpCommand(st *state) *cli.Command {
	return &cli.Command{
		Name:  "mcp",
		Usage: "serve browser sessions to an agent host as an MCP server on stdin/stdout, or streamable HTTP on loopback (docs/mcp.md)",
		UsageText: "fastbrowser mcp --binding-origin ORIGIN ... [--browser PATH | --cdp-url URL] [--headed]\n" +
			"                [--viewport WxH] [--secret-env NAME ...] [--artifacts DIR] [--config FILE] [--confirm-mutations]\n" +
			"                [--http 127.0.0.1:PORT [--http-token-env NAME] [--http-idle-timeout D]]",
		Flags: append(browserFlags(),
			&cli.StringSliceFlag{Name: "binding-origin", Usage: "exact origin the server's sessions may be opened on (repeat; required: there is no default; \"*\" explicitly for any http/https origin); each browser_open narrows it"},
			&cli.StringFlag{Name: "viewport", Value: mcpViewport, Usage: "lay every session's pages out at `WxH` CSS pixels (Playwright MCP's default size; a responsive page shows its desktop layout)"},
			secretEnvFlag,
			&cli.StringFlag{Name: "artifacts", Usage: "private evidence store `DIR` (0700): failure evidence of the sessions' operations, and browser_screenshot's screenshots (the tool is refused without it)"},
			&cli.StringFlag{Name: "config", Usage: "config `FILE` (fastbrowser.json) whose \"session\" block sets the binding (--binding-origin wins), idle and request timeouts, page_text budgets and ceilings; see docs/scenarios.md \"Session config\""},
			&cli.BoolFlag{Name: "confirm-mutations", Usage: "ask the user through MCP elicitation before every tool that may change a page (act, type_secret, navigate, …), naming the action and the element; declined: refused cancelled, nothing runs; a client without elicitation is refused"},
			&cli.StringFlag{Name: "http", Usage: "serve streamable HTTP on `ADDR` (a loopback IP and port, 127.0.0.1:0 for any free port) instead of stdio; prints {\"url\",\"token\"} on stdout; stdin's end stops it"},
			&cli.StringFlag{Name: "http-token-env", Usage: "with --http: the bearer token every request needs is this environment `NAME`'s value (16 characters or more; never printed); without it the server makes one and prints it"},
			&cli.DurationFlag{Name: "http-idle-timeout", Value: budgets.SessionIdle().Default, Usage: "with --http: close an MCP session (and the browser sessions it opened) after this long without a request from its client, which may have gone without ending it (1s to 24h)"},
		),
		// A flag the parser refuses is exit 2 with the message on stderr: urfave/cli would
		// print the help on stdout, which is the MCP channel.
		OnUsageError: func(_ *cli.Context, err error, _ bool) error { return usageError("mcp: %v", err) },
		Action: func(c *cli.Context) error {
			var set *secrets.Set
			err := serveMCP(c, st, &set)
			if ee, ok := err.(*exitError); ok && set != nil {
				ee.msg = set.Scrub(ee.msg) // stderr is a log too
			}
			return err
		},
	}
}

// mcpViewport is the size an MCP session lays pages out at unless --viewport says otherwise:
// Playwright's default, which Playwright MCP uses, so a page an agent host knows from it
// shows the same (desktop) layout here. Headless Chromium's own window is narrower (about
// 780 CSS pixels), where responsive apps fold their menus away.
const mcpViewport = "1280x720"

func serveMCP(c *cli.Context, st *state, set **secrets.Set) error {
	if err := checkBrowserFlags(c); err != nil {
		return err
	}
	httpOpts, err := mcpHTTPFlags(c, st)
	if err != nil {
		return err
	}
	binding, session, err := hostBinding(c)
	if err != nil {
		return err
	}
	if len(binding) == 0 {
		// Deny by default: no binding is no origin, and "*" is only ever said outright.
		return usageError("mcp needs --binding-origin ORIGIN (repeat; \"*\" explicitly for any http/https origin), or a --config whose session block has bindingOrigins")
	}
	viewport, err := transport.ParseViewport(c.String("viewport"))
	if err != nil {
		return usageError("mcp: --viewport %s: %v", c.String("viewport"), err)
	}
	opts, done, err := sessionTemplate(c, st, nil, "mcp", set)
	if err != nil {
		return err
	}
	defer done()
	opts.WebRTC = runtime.WebRTCBlock
	opts.Viewport = viewport
	host, closeHost, err := openHost("mcp", opts, binding, session)
	if err != nil {
		return err
	}
	defer closeHost()
	dir, err := os.Getwd()
	if err != nil {
		return exitWith(exitFailed, "mcp: the working directory: %v", err)
	}
	srv, err := mcpserver.New(host, mcpserver.Options{Version: version, SecretNames: c.StringSlice(secretEnvFlag.Name), Secrets: *set,
		Artifacts: c.String("artifacts"), ConfirmMutations: c.Bool("confirm-mutations"), Recorder: mcpRecorder{sessions.NewCalls(dir, viewport.String())}})
	if err != nil {
		return exitWith(exitFailed, "mcp: %v", err)
	}
	if httpOpts != nil {
		if err := serveMCPHTTP(c.Context, st, srv, httpOpts, *set); err != nil && c.Context.Err() == nil {
			if _, ok := err.(*exitError); ok {
				return err
			}
			return exitWith(exitFailed, "mcp: %v", err)
		}
		return nil
	}
	if err := srv.Serve(c.Context, st.stdin, st.stdout); err != nil && c.Context.Err() == nil {
		return exitWith(exitFailed, "mcp: %v", err)
	}
	return nil
}

// mcpRecorder is browser_export's Recorder: the sessions' calls kept and exported by
// scenario/sessions, the code `session export` runs (runtime/mcpserver may not import it).
type mcpRecorder struct{ calls *sessions.Calls }

func (r mcpRecorder) Record(owner transport.Owner, op transport.Operation, res transport.Result, exported bool) {
	r.calls.Record(owner, op, res, exported)
}

func (r mcpRecorder) Export(owner transport.Owner, id string) (*mcpserver.Export, error) {
	x, err := r.calls.Export(owner, id)
	if err != nil {
		return nil, err
	}
	return &mcpserver.Export{File: string(x.File), Operations: x.Operations, Warnings: x.Warnings}, nil
}
