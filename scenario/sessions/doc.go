// Package sessions owns interactive sessions (docs/sessions.md): the session host, a
// detached process that keeps one runtime (Chromium, worker, egress proxy, artifact store)
// alive between separate `fastbrowser session` commands and answers them over a unix socket
// in a private state directory; the state directory itself (one 0700 directory per session
// with session.json and history.jsonl, both 0600, written atomically); the history of what
// each `do` ran; and export, which turns that history into a scenario file v1 that
// `fastbrowser run` replays. Calls keeps the same history for sessions driven one protocol
// call at a time (`fastbrowser mcp`'s browser_export), so both export one kind of file.
//
// The host checks and runs operations through scenario.Live, so a session's operations are
// exactly a scenario file's. It speaks protocol v1 frames through transport's host calls
// (transport/wire/hostcall.go); no other framing exists here. The CLI wiring is
// cmd/fastbrowser/cmd_session*.go.
package sessions
