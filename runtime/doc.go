// Package runtime owns one browser session: it launches Chromium (sub-package chromium) or
// attaches to a DevTools endpoint without owning that browser, starts and stops the worker
// process and speaks to it through a transport.Conn over its stdio (workerproc.go), issues
// opaque tab handles (worker target IDs never leave it), checks every navigation against the
// origin policy (sub-package policy) before dispatch, and serialises calls. Child processes
// go through sub-package process.
//
// It must not frame JSONL (transport does) or speak CDP (the worker does).
package runtime
