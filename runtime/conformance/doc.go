// Package conformance is the executor conformance suite: it drives any program that speaks
// the worker protocol (protocol v1 over stdio, docs/protocol.md) through package runtime,
// against a fixture site, and reports one result per check (docs/conformance.md).
//
// It owns what it starts for a run (the fixture and canary servers, one Chromium, the
// session, a temporary artifact store) and stops and removes all of it before Run returns.
// It must not speak CDP or frame JSONL itself: the runtime does, as it would for a scenario.
package conformance
