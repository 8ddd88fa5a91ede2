// Package transport owns protocol v1: the typed operation requests and results, the one error
// shape (*OperationError), the wire frames, the JSONL server loop the worker, serve and the
// session host use, and the Conn that calls a worker over any reader and writer (pending
// calls, deadlines, cancel frames, the end of the stream). It is the only package that frames
// JSONL (sub-package jsonl splits and joins lines; strictjson refuses lenient input).
//
// The operation table (operations.go) is the one description of every operation: its name,
// request and result types, whether it mutates, its deadline, and how the layers treat it.
// Adding an operation is its types and row there, its worker handler (worker/dispatch.go
// explains), `go generate ./...` (the schemas and the docs' operation tables are generated
// from the types and the table), its prose in docs/protocol.md, and a test; tests fail if any
// of these is missing.
//
// Failure evidence travels beside an *OperationError, in an *EvidencedError (evidenceerror.go).
// Validate is the one request check each process boundary runs. The package also holds the
// project's two name shapes (names.go: ids, environment variable names) and its one way to
// cut text short (clip.go).
//
// It must not know about CDP, scenario files or artifacts on disk, and it starts no
// process: package runtime starts the worker and hands its stdio to a Conn.
package transport
