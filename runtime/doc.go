// Package runtime owns one browser session: it takes its browser from an Allocator (the one
// launch path: it launches Chromium through sub-package chromium and owns it, or attaches to
// a DevTools endpoint without owning that browser; for one session or shared by many, as in
// `run`; Runtime.Attached says the browser is not ours), starts and stops the worker process
// and speaks to it through a wire.Conn over its stdio (workerproc.go), issues opaque tab
// handles (worker target IDs never leave it), checks every navigation against the origin
// policy (transport/policy) before dispatch, and serialises calls. Child processes go
// through sub-package process.
//
// It must not frame JSONL (transport does) or speak CDP (the worker does).
package runtime
