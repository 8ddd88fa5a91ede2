// Package transport owns protocol v1: the typed operation requests and results, the one error
// shape (*OperationError), the wire frames, the JSONL server loop the worker, serve and the
// session host use, and the Client that owns a worker subprocess. It is the only package that
// frames JSONL (sub-package jsonl splits and joins lines; strictjson refuses lenient input).
//
// Failure evidence travels beside an *OperationError, in an *EvidencedError (evidenceerror.go).
// Validate is the one request check each process boundary runs. The package also holds the
// project's two name shapes (names.go: ids, environment variable names) and its one way to
// cut text short (clip.go).
//
// It must not know about CDP, scenario files or artifacts on disk.
package transport
