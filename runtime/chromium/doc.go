// Package chromium launches a local Chromium that the runtime owns: it makes a throwaway
// profile, starts the browser through package process with --remote-debugging-pipe (so it
// listens on no port), puts the pipe behind a gate (runtime/internal/cdpgate: workers come in through
// private sockets, attached clients through a token websocket), waits (bounded) for the
// browser's first answer on it, and on Close stops the whole process group and then removes
// the profile. Before each launch it sweeps the temp directory of the profiles and Chromium
// singleton directories a crash or SIGKILL left, bounded, removing only those proven unused
// (sweep.go).
//
// It does not speak CDP beyond its readiness check and Browser.close, does not attach to
// browsers it did not start (that is --cdp-url, elsewhere), never looks Chromium up on PATH,
// and never puts Chromium's stderr in an error: that goes to Options.Log.
package chromium
