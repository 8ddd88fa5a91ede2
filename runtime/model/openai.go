package model

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/fastbrowser/fastbrowser/budgets"
)

// openAIBase is the default OpenAI-compatible base URL.
const openAIBase = "https://api.openai.com/v1"

// openAIAdapter speaks the chat-completions API (OpenAI and compatible servers: Ollama,
// llama.cpp, vLLM).
type openAIAdapter struct{ *endpoint }

type oaRequest struct {
	Model             string      `json:"model"`
	Messages          []oaMessage `json:"messages"`
	Tools             []oaTool    `json:"tools,omitempty"`
	ToolChoice        string      `json:"tool_choice,omitempty"`
	ParallelToolCalls *bool       `json:"parallel_tool_calls,omitempty"`
	MaxTokens         int         `json:"max_tokens"`
	// Store false asks OpenAI not to keep the exchange (prompts carry page text).
	Store bool `json:"store"`
}

type oaMessage struct {
	Role       string       `json:"role"`
	Content    *string      `json:"content"` // null on an assistant message that only calls a tool
	ToolCalls  []oaToolCall `json:"tool_calls,omitempty"`
	ToolCallID string       `json:"tool_call_id,omitempty"`
}

type oaToolCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"` // a JSON object, as a string
	} `json:"function"`
}

type oaTool struct {
	Type     string `json:"type"`
	Function struct {
		Name        string          `json:"name"`
		Description string          `json:"description,omitempty"`
		Parameters  json.RawMessage `json:"parameters"`
	} `json:"function"`
}

type oaReply struct {
	Choices []struct {
		Message struct {
			Content   *string      `json:"content"`
			ToolCalls []oaToolCall `json:"tool_calls"`
		} `json:"message"`
	} `json:"choices"`
	Usage struct {
		PromptTokens     int `json:"prompt_tokens"`
		CompletionTokens int `json:"completion_tokens"`
	} `json:"usage"`
}

func (a *openAIAdapter) Complete(ctx context.Context, req Request) (Reply, error) {
	body, err := a.request(req)
	if err != nil {
		return Reply{}, err
	}
	data, err := a.call(ctx, openAIBase+"/chat/completions", "/chat/completions", nil, func(h http.Header, key string) {
		h.Set("Authorization", "Bearer "+key)
	}, body)
	if err != nil {
		return Reply{}, err
	}
	return a.reply(data)
}

// request renders req: the system prompt first, then the conversation.
func (a *openAIAdapter) request(req Request) (oaRequest, error) {
	out := oaRequest{Model: a.cfg.Model, MaxTokens: budgets.ModelMaxTokens, Store: false}
	if req.System != "" {
		out.Messages = append(out.Messages, oaMessage{Role: "system", Content: &req.System})
	}
	for _, m := range req.Messages {
		text := m.Text
		switch m.Role {
		case RoleUser:
			out.Messages = append(out.Messages, oaMessage{Role: "user", Content: &text})
		case RoleAssistant:
			msg := oaMessage{Role: "assistant"}
			if text != "" || m.Call == nil {
				msg.Content = &text
			}
			if m.Call != nil {
				var c oaToolCall
				c.ID, c.Type = m.Call.ID, "function"
				c.Function.Name, c.Function.Arguments = m.Call.Name, string(objectOr(m.Call.Arguments))
				msg.ToolCalls = []oaToolCall{c}
			}
			out.Messages = append(out.Messages, msg)
		case RoleTool:
			out.Messages = append(out.Messages, oaMessage{Role: "tool", ToolCallID: m.ResultOf, Content: &text})
		default:
			return oaRequest{}, failed("%s: a message has the unknown role %q", a.cfg.Provider, m.Role)
		}
	}
	for _, t := range req.Tools {
		var ot oaTool
		ot.Type = "function"
		ot.Function.Name, ot.Function.Description, ot.Function.Parameters = t.Name, t.Description, schemaOr(t.Parameters)
		out.Tools = append(out.Tools, ot)
	}
	if len(out.Tools) > 0 {
		// One call per turn: the loop acts, then observes, before the model decides again.
		// (Both fields are refused by the API without tools.)
		no := false
		out.ToolChoice, out.ParallelToolCalls = "auto", &no
	}
	return out, nil
}

func (a *openAIAdapter) reply(data []byte) (Reply, error) {
	p := a.cfg.Provider
	var r oaReply
	if err := json.Unmarshal(data, &r); err != nil {
		return Reply{}, failed("%s: the reply is not a chat completion", p)
	}
	if len(r.Choices) == 0 {
		return Reply{}, failed("%s: the reply has no choices", p)
	}
	msg := r.Choices[0].Message
	out := Reply{InputTokens: r.Usage.PromptTokens, OutputTokens: r.Usage.CompletionTokens}
	if msg.Content != nil {
		out.Text = *msg.Content
	}
	for _, c := range msg.ToolCalls {
		args, err := callArgs(p, c.Function.Name, []byte(c.Function.Arguments))
		if err != nil {
			return Reply{}, err
		}
		out.Calls = append(out.Calls, ToolCall{ID: c.ID, Name: c.Function.Name, Arguments: args})
	}
	return out, nil
}
