// Package transport owns protocol v1: the typed operation requests and results, the one error
// shape (*OperationError), the wire frames, the JSONL server loop the worker, serve and the
// session host use, and the Conn that calls a worker over any reader and writer (pending
// calls, deadlines, cancel frames, the end of the stream). It is the only package that frames
// JSONL (sub-package jsonl splits and joins lines; strictjson refuses lenient input).
//
// It must not know about CDP, scenario files or artifacts on disk, and it starts no
// process: package runtime starts the worker and hands its stdio to a Conn.
package transport
