// Package conformance is the executor conformance suite: it drives any program that speaks
// the worker protocol (protocol v1 over stdio, docs/protocol.md) through a multi-session
// host (runtime/registry, with the caller's session config and binding) and package
// runtime, against a fixture site, and reports one result per check (docs/conformance.md):
// what a host relies on, from one context across batches to ownership refusals, narrowing,
// denial postures, page_text budgets, handoff and evidence without bytes.
//
// It owns what it starts for a run (the fixture and canary servers, one Chromium, the host
// and its sessions, a temporary artifact store unless given one) and stops and removes all
// of it before Run returns.
// It must not speak CDP or frame JSONL itself: the runtime does, as it would for a scenario.
package conformance
