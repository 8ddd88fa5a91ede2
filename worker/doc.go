// Package worker is the CDP worker: the `fastbrowser worker` process that connects to one
// Chromium with github.com/mafredri/cdp, creates its own browser context and first tab, and
// answers protocol v1 on stdin/stdout through transport.Serve (logs go to stderr only).
//
// It holds one websocket, the browser's: every tab, out-of-process frame, dedicated worker
// and held popup is a flat CDP session on it with its own *cdp.Client (cdpmux.go), so an
// endpoint that exposes only the browser websocket (Selenium Grid 4, browserless) serves it.
//
// It owns targets, their event streams, the operations' CDP work and the in-browser checks.
// Each operation's implementation registers itself as the handler of its request type next
// to its code (dispatch.go: handles, handlesTab); a test checks every row of the operation
// table (transport/operations.go) has one.
// It never writes files, never frames JSONL itself, and never lets a CDP error text reach a
// message: every failure leaves as a *transport.OperationError with a safe message.
package worker
