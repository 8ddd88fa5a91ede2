// Package wire carries protocol v1 (package transport) over byte streams: one frameConn
// (frameconn.go) reads and writes whole frames for all three users of a connection —
//
//   - Conn calls a worker: ids, pending calls, deadlines, cancel frames, the end of the
//     stream (package runtime starts the worker process and wraps its stdio in a Conn);
//   - Serve is the server loop of a worker, `fastbrowser serve` and the multi-session host:
//     one lane per session, a bad line answered and never fatal, cancellation, close;
//   - ServeHostCall and HostCall are the one-call connections of a session host, whose ops
//     are its own.
//
// It knows the protocol, never a layer above it: no worker, runtime, scenario or CLI code
// (the layering test holds it to that). Line splitting and joining is sub-package
// transport/jsonl's.
package wire
