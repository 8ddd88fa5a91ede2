// Package worker is the CDP worker: the `fastbrowser worker` process that connects to one
// Chromium with github.com/mafredri/cdp, creates its own browser context and first tab, and
// answers protocol v1 on stdin/stdout through wire.Serve (logs go to stderr only).
//
// It holds one websocket, the browser's: every tab, out-of-process frame, dedicated worker
// and held popup is a flat CDP session on it with its own *cdp.Client (cdpmux.go), so an
// endpoint that exposes only the browser websocket (Selenium Grid 4, browserless) serves it.
//
// Start (worker.go connect, attachThen) is concurrent where order does not matter for
// safety: the browser's version is asked while the context and first tab are created; the
// watch for new tabs and the hold on them (popupattach.go) start while the first tab's
// renderer does; the first tab's interception and child auto-attach, its dialog and socket
// watches, diagnostics and page set-up (Page.enable, viewport, document guards, lifecycle
// events, frame tree) go out together, and ready is reported once all have answered, so the
// tab is guarded before its first use. A page held at its start (a popup) is still
// intercepted and auto-attached before it is resumed, and set up after. Under
// --await-browser the worker starts before its browser is up and reads its endpoint from
// its first input line (awaitbrowser.go).
//
// It owns targets, their event streams, the operations' CDP work and the in-browser checks.
// Each operation's implementation registers itself as the handler of its request type next
// to its code (dispatch.go: handles, handlesTab); a test checks every row of the operation
// table (transport/operations.go) has one.
// It never writes files, never frames JSONL itself, and never lets a CDP error text reach a
// message: every failure leaves as a *transport.OperationError with a safe message.
package worker
