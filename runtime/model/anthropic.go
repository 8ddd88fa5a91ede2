package model

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/fastbrowser/fastbrowser/budgets"
)

// anthropicBase is the default Anthropic base URL; anthropicVersion the API version spoken.
const (
	anthropicBase    = "https://api.anthropic.com"
	anthropicVersion = "2023-06-01"
)

// anthropicAdapter speaks the Anthropic messages API. That API has no switch like OpenAI's
// store:false; what it keeps is governed by the account's data-retention terms.
type anthropicAdapter struct{ *endpoint }

type anRequest struct {
	Model      string       `json:"model"`
	MaxTokens  int          `json:"max_tokens"`
	System     string       `json:"system,omitempty"`
	Messages   []anMessage  `json:"messages"`
	Tools      []anTool     `json:"tools,omitempty"`
	ToolChoice *anToolUsage `json:"tool_choice,omitempty"`
}

type anToolUsage struct {
	Type                   string `json:"type"`
	DisableParallelToolUse bool   `json:"disable_parallel_tool_use"`
}

type anMessage struct {
	Role    string    `json:"role"`
	Content []anBlock `json:"content"`
}

// anBlock is one content block: text, tool_use (assistant) or tool_result (user).
type anBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text,omitempty"`
	ID        string          `json:"id,omitempty"`
	Name      string          `json:"name,omitempty"`
	Input     json.RawMessage `json:"input,omitempty"`
	ToolUseID string          `json:"tool_use_id,omitempty"`
	Content   *string         `json:"content,omitempty"` // a tool_result's text
}

type anTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	InputSchema json.RawMessage `json:"input_schema"`
}

type anReply struct {
	Content []anBlock `json:"content"`
	Usage   struct {
		InputTokens  int `json:"input_tokens"`
		OutputTokens int `json:"output_tokens"`
	} `json:"usage"`
}

func (a *anthropicAdapter) Complete(ctx context.Context, req Request) (Reply, error) {
	body, err := a.request(req)
	if err != nil {
		return Reply{}, err
	}
	h := http.Header{}
	h.Set("anthropic-version", anthropicVersion)
	data, err := a.call(ctx, anthropicBase+"/v1/messages", "/v1/messages", h, func(h http.Header, key string) {
		h.Set("x-api-key", key)
	}, body)
	if err != nil {
		return Reply{}, err
	}
	return a.reply(data)
}

// request renders req. A tool result is a user message's tool_result block; consecutive
// messages of one role are merged, because the API requires the roles to alternate.
func (a *anthropicAdapter) request(req Request) (anRequest, error) {
	out := anRequest{Model: a.cfg.Model, MaxTokens: budgets.ModelMaxTokens, System: req.System}
	for _, m := range req.Messages {
		role, blocks := "user", []anBlock(nil)
		switch m.Role {
		case RoleUser:
			if m.Text != "" {
				blocks = []anBlock{{Type: "text", Text: m.Text}}
			}
		case RoleAssistant:
			role = "assistant"
			if m.Text != "" {
				blocks = append(blocks, anBlock{Type: "text", Text: m.Text})
			}
			if m.Call != nil {
				blocks = append(blocks, anBlock{Type: "tool_use", ID: m.Call.ID, Name: m.Call.Name, Input: objectOr(m.Call.Arguments)})
			}
		case RoleTool:
			text := m.Text
			blocks = []anBlock{{Type: "tool_result", ToolUseID: m.ResultOf, Content: &text}}
		default:
			return anRequest{}, failed("%s: a message has the unknown role %q", a.cfg.Provider, m.Role)
		}
		if len(blocks) == 0 {
			continue // the API refuses empty content
		}
		if n := len(out.Messages); n > 0 && out.Messages[n-1].Role == role {
			out.Messages[n-1].Content = append(out.Messages[n-1].Content, blocks...)
			continue
		}
		out.Messages = append(out.Messages, anMessage{Role: role, Content: blocks})
	}
	for _, t := range req.Tools {
		out.Tools = append(out.Tools, anTool{Name: t.Name, Description: t.Description, InputSchema: schemaOr(t.Parameters)})
	}
	if len(out.Tools) > 0 {
		// One call per turn, as for OpenAI; tool_choice is refused without tools.
		out.ToolChoice = &anToolUsage{Type: "auto", DisableParallelToolUse: true}
	}
	return out, nil
}

func (a *anthropicAdapter) reply(data []byte) (Reply, error) {
	p := a.cfg.Provider
	var r anReply
	if err := json.Unmarshal(data, &r); err != nil {
		return Reply{}, failed("%s: the reply is not a message", p)
	}
	out := Reply{InputTokens: r.Usage.InputTokens, OutputTokens: r.Usage.OutputTokens}
	var text []string
	for _, b := range r.Content {
		switch b.Type {
		case "text":
			text = append(text, b.Text)
		case "tool_use":
			args, err := callArgs(p, b.Name, b.Input)
			if err != nil {
				return Reply{}, err
			}
			out.Calls = append(out.Calls, ToolCall{ID: b.ID, Name: b.Name, Arguments: args})
		}
	}
	out.Text = strings.Join(text, "")
	return out, nil
}
