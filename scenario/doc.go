// Package scenario owns scenario file v1 (parse, strict validation with JSON paths, tab
// references, fragments included at load, the run config fastbrowser.json that supplies
// defaults), fixture servers (managed and external, readiness), hooks, the runner that
// executes one scenario's operations through a Session (a runtime.Runtime), and report v1.
//
// Suite runs many scenarios the way `fastbrowser run` and `replay` do: scheduling (jobs,
// managed servers shared by the files naming the same one and turns on an address named
// with different ones (ServerPlan), fail-fast, retries of a scenario that did not pass — whole
// attempts, never one operation; shards and grep select what it gets), one browser for
// the run from a runtime.Allocator (launched on the first open and relaunched after a crash,
// or attached), a session and an artifact store per scenario — the next scenario's session
// opened while the running ones run (suite_ahead.go: at most jobs+1 live, never shared) —
// and reports in input order.
// The CLI only wires flags to it and prints and writes what it returns.
//
// Only what opens a session needs Chromium: parsing, validation, the schema, the step
// matcher and tab references do not, and their tests run without a browser.
//
// It never starts a shell, never interpolates strings, and resolves relative URLs only
// against fixture.baseUrl.
package scenario

// The scenario schema's request shapes, docs/protocol.schema.json and the operation tables
// of docs/protocol.md and docs/scenarios.md are generated from the Go types (internal/gen).
//go:generate go run ./internal/gen
