package main

import (
	"time"

	"github.com/urfave/cli/v2"

	"github.com/fastbrowser/fastbrowser/artifacts"
	"github.com/fastbrowser/fastbrowser/runtime"
	"github.com/fastbrowser/fastbrowser/runtime/registry"
	"github.com/fastbrowser/fastbrowser/scenario"
	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/secrets"
)

// The set-up `serve` and `mcp` share: the options every session they open starts from, and
// the multi-session host (runtime/registry) that opens them. Each command adds only what is
// its own (serve: the model, WebRTC, single-session mode; both: how they speak).

// sessionTemplate is the runtime options a hosting command's sessions open with: the
// browser flags, origins, the --secret-env set (its values masked in every result, error
// and log), the scrubbed debug log and the --artifacts store. *set is the secret set once
// it is known (a start failure is scrubbed with it). done flushes the log and closes the
// store; call it once the sessions are closed. The browser flags are checked by the caller
// first (checkBrowserFlags).
func sessionTemplate(c *cli.Context, st *state, origins []string, owner string, set **secrets.Set) (runtime.Options, func(), error) {
	opts := runtimeOptions(c, st, origins)
	var err error
	if *set, err = serveSecrets(c, st); err != nil {
		return opts, nil, err
	}
	var flush func()
	opts.Secrets = *set
	opts.Log, flush = scrubbedLog(opts.Log, *set)
	dir := c.String("artifacts")
	if dir == "" {
		return opts, flush, nil
	}
	run := scenario.NewRunID(time.Now()) // unique and path-safe
	store, err := artifacts.Open(dir, owner+"-"+run)
	if err != nil {
		flush()
		return opts, nil, dirRefused("--artifacts", dir, "fastbrowser-artifacts", err)
	}
	opts.Evidence = &runtime.EvidenceOptions{Store: store, RunID: run, Owner: owner, OnFailure: true}
	return opts, func() { store.Close(); flush() }, nil
}

// hostBinding is the binding a multi-session host is given: --binding-origin, else the
// --config file's session.bindingOrigins (nil: neither), and the config's session block.
func hostBinding(c *cli.Context) ([]string, *registry.Config, error) {
	session, err := serveConfig(c)
	if err != nil {
		return nil, nil, err
	}
	binding := c.StringSlice("binding-origin")
	if len(binding) == 0 && session != nil {
		binding = session.BindingOrigins
	}
	return binding, session, nil
}

// openHost starts the browser allocator (launched, or attached with --cdp-url) and the
// registry over it; closeHost ends every session, then the browser. name labels the session
// ends it writes to the debug log.
func openHost(name string, opts runtime.Options, binding []string, session *registry.Config) (host *registry.Host, closeHost func(), err error) {
	alloc := runtime.NewLaunchAllocator(runtime.LaunchOptions(opts, false))
	if opts.CDPURL != "" {
		alloc = runtime.NewAttachAllocator(opts.CDPURL)
	}
	opts.Allocator = alloc
	host, err = registry.New(registry.Options{Binding: binding, Session: opts, Config: session, OnEnd: logSessionEnd(name, opts.Log)})
	if err != nil {
		alloc.Close()
		return nil, nil, usageError("--binding-origin: %s", transport.AsOperationError("", err).Message)
	}
	return host, func() { host.Close(); alloc.Close() }, nil
}
