package main

import (
	"github.com/urfave/cli/v2"

	"github.com/fastbrowser/fastbrowser/runtime"
	"github.com/fastbrowser/fastbrowser/runtime/registry"
	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/wire"
)

// serveMany is `serve --binding-origin …`: one browser, many sessions (a context each), each
// opened by a task with openSession and named with its task in every later frame. session is
// the --config file's session block (nil: the budgets' defaults and ceilings).
func serveMany(c *cli.Context, st *state, opts runtime.Options, binding []string, session *registry.Config) error {
	alloc := runtime.NewLaunchAllocator(runtime.LaunchOptions(opts, false))
	if opts.CDPURL != "" {
		alloc = runtime.NewAttachAllocator(opts.CDPURL)
	}
	defer alloc.Close()
	opts.Allocator = alloc
	host, err := registry.New(registry.Options{Binding: binding, Session: opts, Config: session})
	if err != nil {
		return usageError("--binding-origin: %s", transport.AsOperationError("", err).Message)
	}
	defer host.Close()
	err = wire.Serve(c.Context, st.stdin, st.stdout, host, wire.ServerOptions{SessionLanes: true})
	if err != nil {
		return servingError{exitWith(exitFailed, "serve: %v", err)}
	}
	return nil
}
