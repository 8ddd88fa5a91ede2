// Package cdppipe frames Chrome DevTools Protocol messages on a byte stream as Chromium's
// --remote-debugging-pipe does: one JSON object, then one NUL byte. The runtime's gate
// (runtime/internal/cdpgate) speaks it on the browser's pipe and on each worker's private socket,
// and the worker on its end of that socket (Stream, for rpcc).
//
// It frames and bounds messages; it does not parse them (that is the gate's job) and knows
// nothing of JSONL, which is the rest of transport's.
package cdppipe
