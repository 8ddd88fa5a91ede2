// Package chromium launches a local Chromium that the runtime owns: it makes a throwaway
// profile, starts the browser through package process, waits (bounded) for the DevTools
// websocket URL on stderr, and on Close stops the whole process group and then removes the
// profile. Before each launch it sweeps the temp directory of the profiles and Chromium
// singleton directories a crash or SIGKILL left, bounded, removing only those proven unused
// (sweep.go).
//
// It does not speak CDP beyond finding the URL, does not attach to browsers it did not start
// (that is --cdp-url, elsewhere), never looks Chromium up on PATH, and never puts Chromium's
// stderr in an error: that goes to Options.Log.
package chromium
