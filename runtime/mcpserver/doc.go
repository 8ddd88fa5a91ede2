// Package mcpserver is the Model Context Protocol face of the multi-session host
// (runtime/registry): `fastbrowser mcp` serves it over stdio, or over streamable HTTP behind
// a bearer token (http.go). Each MCP connection is one task of the host, ended with the
// connection. Each tool is one protocol v1
// operation sent through the host's Handle, so ownership, origin narrowing, egress, budgets,
// refs and secret scrubbing are the host's and the runtime's, never re-implemented here. A
// tool's input schema is the operation's request schema (transport.RequestSchema) with the
// session that owns the call added, narrowed only where the tool takes less.
//
// It lives in runtime, beside the registry it fronts, and not in transport: transport is
// below every layer and speaks protocol v1 alone, and the MCP side (JSON-RPC framing,
// version negotiation, the stdio transport, input validation against the schemas) is the
// official Go SDK's, github.com/modelcontextprotocol/go-sdk. The CLI (cmd/fastbrowser
// cmd_mcp.go) owns flags, the browser and the host; this package owns the tool table, the
// one envelope page content travels in, the shape of a refused call, the image a proven
// screenshot adds, read back from the artifact store by the store's own read-back, and the
// user's confirmation of a mutating call (confirm.go, --confirm-mutations).
//
// It must not decide policy: a tool that cannot be expressed as one operation on the host
// does not belong here. The one tool the server answers itself, browser_export, sends the
// host nothing: it writes the calls the host already answered as a scenario file. That file
// is the scenario layer's (scenario/sessions, the code `session export` runs), and runtime
// must not import scenario (cmd/fastbrowser TestLayering), so the server only tells a
// Recorder each call that succeeded and asks it for the file; cmd/fastbrowser wires in
// scenario/sessions' Calls.
package mcpserver
