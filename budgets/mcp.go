package budgets

import "time"

// The MCP server (`fastbrowser mcp`, docs/mcp.md).
const (
	// MCPConfirmWait bounds the wait for the user's answer to one --confirm-mutations prompt
	// when the server asks the client itself (protocol versions before 2026-07-28): a person
	// reads it, so it is long, but a prompt nobody answers still ends the call.
	MCPConfirmWait = 2 * time.Minute
	// MCPConfirmPending bounds the confirmations the server has asked for and not yet seen
	// answered; past it the oldest is forgotten, and its answer is refused.
	MCPConfirmPending = 64
	// MCPHTTPHeaderRead bounds reading one HTTP request's headers (mcp --http).
	MCPHTTPHeaderRead = 10 * time.Second
	// MCPHTTPShutdown bounds the HTTP server's wait for its connections to finish once
	// every MCP session is closed; then they are cut.
	MCPHTTPShutdown = 5 * time.Second
)
