// Package cdpgate is the only way into a Chromium that fastbrowser launched. The browser is
// started with --remote-debugging-pipe, so it listens on no port; the gate owns that pipe
// and gives every client a browser-level DevTools session of its own on it
// (Target.attachToBrowserTarget, flat mode), so each client sees the browser as if it had a
// connection of its own: its own target discovery and auto-attach, the sessions it attaches,
// and the browser contexts it made disposed when it leaves.
//
// Clients reach the gate three ways, none of which another local user can use:
//   - a worker through a private socket: one end of a socketpair, handed to the worker
//     process as a file descriptor (Gate.Serve);
//   - the owner process itself (Gate.Dial, for Browser.close and tests);
//   - a person or a program attaching on purpose (`session open`'s cdp_url, a --worker
//     command) through a websocket on a loopback port that answers only at a path holding
//     the browser's random token, and on Linux only to connections of this user
//     (Gate.WebSocketURL; nothing listens until it is first asked for).
//
// The gate renumbers each client's calls onto the pipe and routes each answer back; it
// routes events by sessionId to the client that holds the session, learning which sessions a
// client holds from the browser's own answers and Target.attachedToTarget events; and it
// refuses a call addressed to a session another client holds. It edits messages in place
// (rewrite.go) and never decodes a page's data.
//
// It must not frame anything but CDP on the pipe (transport/cdppipe), must not wait without
// a bound (budgets: GateClientStall, GateAttach), and must not let one client's session be
// driven by another.
package cdpgate
