// Package model owns the model adapter seam: the configuration of a model (provider, model,
// endpoint, the environment variable that holds its API key) and the adapters that speak an
// OpenAI-compatible chat-completions endpoint and the Anthropic messages API with tool calls.
// An adapter sees only what it is handed: a request built by the runtime's task loop (already
// bounded and secret-scrubbed) and, on each call, the one environment variable its
// configuration names. It never reads the proxy environment, never follows a redirect (which
// would resend the key and the prompt elsewhere), never retries, and asks the API not to
// store the exchange where the API has such a switch (OpenAI's store:false; Anthropic's
// messages API has none). A key is registered as a secret before it is sent; one too short
// to mask is refused.
//
// Nothing here picks a provider: with no Config there is no adapter, and operations that need
// one are refused model_required by the runtime.
package model

import (
	"context"
	"encoding/json"
)

// Providers.
const (
	ProviderOpenAI    = "openai"    // an OpenAI-compatible /chat/completions endpoint (OpenAI, Ollama, llama.cpp, vLLM, …)
	ProviderAnthropic = "anthropic" // the Anthropic /v1/messages API
)

// Config names a model (docs/models.md "Configuration"). It is what `--model` and a scenario
// or run config's "model" field give.
type Config struct {
	Provider string `json:"provider" required:"true"`
	Model    string `json:"model" required:"true"`
	// BaseURL is the API's base: for openai the URL that /chat/completions is appended to
	// (default https://api.openai.com/v1; Ollama: http://127.0.0.1:11434/v1), for anthropic
	// the URL that /v1/messages is appended to (default https://api.anthropic.com).
	BaseURL string `json:"baseUrl,omitempty"`
	// APIKeyEnv names the environment variable that holds the API key, read on each call
	// (never stored, masked everywhere). Empty: no key is sent (a local server).
	APIKeyEnv string `json:"apiKeyEnv,omitempty"`
}

// Tool is one tool a model may call: a name, what it is for, and its arguments' JSON Schema.
type Tool struct {
	Name        string
	Description string
	Parameters  json.RawMessage // a JSON Schema object
}

// Message is one entry of a conversation, provider-neutral. A user message has Text; an
// assistant message has Text and/or Call (the one tool call it made); a tool message answers
// a call: ResultOf is the call's ID, Text what the tool returned.
type Message struct {
	Role     string // RoleUser | RoleAssistant | RoleTool
	Text     string
	Call     *ToolCall
	ResultOf string
}

// Message roles.
const (
	RoleUser      = "user"
	RoleAssistant = "assistant"
	RoleTool      = "tool"
)

// ToolCall is a tool call a model made.
type ToolCall struct {
	ID        string
	Name      string
	Arguments json.RawMessage // a JSON object
}

// Request is one model call.
type Request struct {
	System   string
	Messages []Message
	Tools    []Tool
}

// Reply is what one model call answered: its text, the tool calls it made (the caller
// decides what more than one means), and what it cost.
type Reply struct {
	Text         string
	Calls        []ToolCall
	InputTokens  int
	OutputTokens int
}

// Adapter is a model endpoint. Complete makes one call, bounded by ctx (the runtime gives it
// what is left of the task); it never retries. Its errors are *transport.OperationError with
// code model_failed (or timeout/cancelled when ctx ended), whose messages name the provider,
// the endpoint's status and what was wrong, never the key, the prompt or the reply's text.
type Adapter interface {
	Complete(ctx context.Context, req Request) (Reply, error)
}
