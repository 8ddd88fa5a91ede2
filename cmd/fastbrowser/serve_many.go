package main

import (
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"github.com/fastbrowser/fastbrowser/runtime"
	"github.com/fastbrowser/fastbrowser/runtime/registry"
	"github.com/fastbrowser/fastbrowser/transport/wire"
)

// serveMany is `serve --binding-origin …`: one browser, many sessions (a context each), each
// opened by a task with openSession and named with its task in every later frame. session is
// the --config file's session block (nil: the budgets' defaults and ceilings).
func serveMany(c *cli.Context, st *state, opts runtime.Options, binding []string, session *registry.Config) error {
	host, closeHost, err := openHost("serve", opts, binding, session)
	if err != nil {
		return err
	}
	defer closeHost()
	err = wire.Serve(c.Context, st.stdin, st.stdout, host, wire.ServerOptions{SessionLanes: true})
	if err != nil {
		return servingError{exitWith(exitFailed, "serve: %v", err)}
	}
	return nil
}

// logSessionEnd writes each session's end to the debug log (FASTBROWSER_DEBUG, scrubbed):
// an idle expiry happens with no request in flight, so without it nothing shows when a
// session ended, and a request sent to find out would renew the session instead.
func logSessionEnd(name string, log io.Writer) func(session, why string) {
	if log == nil {
		return nil
	}
	return func(session, why string) {
		fmt.Fprintf(log, "fastbrowser %s: session %s ended: %s\n", name, session, why)
	}
}
