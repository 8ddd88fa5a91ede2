// Package transport is protocol v1, the contract between every process of the project: the
// typed operation requests and results, the operation table, the one error shape
// (*OperationError), the frames (frames.go), the request budget, Validate (the one request
// check each process boundary runs) and the page-model matcher. It frames and carries
// nothing: sub-package wire is the connection (the JSONL Conn that calls a worker, the serve
// loop, host calls), and jsonl below it the only code that splits and joins lines.
//
// The operation table (operations.go) is the one description of every operation: its name,
// request and result types, whether it mutates, its deadline, and how the layers treat it.
// Adding an operation is its types and row there, its worker handler (worker/dispatch.go
// explains), `go generate ./...` (the schemas and the docs' operation tables are generated
// from the types and the table), its prose in docs/protocol.md, and a test; tests fail if any
// of these is missing.
//
// Failure evidence travels beside an *OperationError, in an *EvidencedError (evidenceerror.go).
// The small shared leaves every layer uses live beside it and import nothing of ours but
// budgets: names (ids, environment variable names), textclip (the one way to cut text
// short), policy (origin rules), secrets (masking), strictjson (strict decoding), cdppipe
// (Chromium's pipe framing).
//
// It must not know about CDP, scenario files or artifacts on disk, and it starts no
// process; the layering test (cmd/fastbrowser/layering_test.go) holds it to importing no
// wire package and no layer above it.
package transport
