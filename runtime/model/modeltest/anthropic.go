package modeltest

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
)

// anthropic is the messages format.
type anthropic struct{}

type anRequest struct {
	Model     string      `json:"model"`
	MaxTokens int         `json:"max_tokens"`
	Messages  []anMessage `json:"messages"`
	Tools     []struct {
		Name        string          `json:"name"`
		InputSchema json.RawMessage `json:"input_schema"`
	} `json:"tools"`
}

type anMessage struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

type anBlock struct {
	Type      string          `json:"type"`
	Text      *string         `json:"text"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
}

func (anthropic) check(h http.Header, body []byte) error {
	if h.Get("anthropic-version") == "" {
		return errors.New("anthropic-version: header required")
	}
	var req anRequest
	if err := json.Unmarshal(body, &req); err != nil {
		return errors.New("body is not a messages request")
	}
	if req.Model == "" {
		return errors.New("model: required")
	}
	if req.MaxTokens <= 0 {
		return errors.New("max_tokens: required")
	}
	if len(req.Messages) == 0 {
		return errors.New("messages: expected at least one")
	}
	uses := map[string]bool{}
	for i, m := range req.Messages {
		want := "user"
		if i%2 == 1 {
			want = "assistant"
		}
		if m.Role != want {
			return fmt.Errorf("messages[%d].role: expected %s (roles alternate, user first)", i, want)
		}
		var text string
		if json.Unmarshal(m.Content, &text) == nil {
			continue
		}
		var blocks []anBlock
		if json.Unmarshal(m.Content, &blocks) != nil || len(blocks) == 0 {
			return fmt.Errorf("messages[%d].content: expected a string or content blocks", i)
		}
		for j, b := range blocks {
			if err := checkBlock(m.Role, b, uses); err != nil {
				return fmt.Errorf("messages[%d].content[%d]: %v", i, j, err)
			}
		}
	}
	for i, t := range req.Tools {
		if t.Name == "" || len(t.InputSchema) == 0 {
			return fmt.Errorf("tools[%d]: expected name and input_schema", i)
		}
	}
	return nil
}

func checkBlock(role string, b anBlock, uses map[string]bool) error {
	switch {
	case b.Type == "text":
		if b.Text == nil {
			return errors.New("text: required")
		}
	case b.Type == "tool_use" && role == "assistant":
		var obj map[string]any
		if b.ID == "" || b.Name == "" || json.Unmarshal(b.Input, &obj) != nil || obj == nil {
			return errors.New("tool_use: expected id, name and an object input")
		}
		uses[b.ID] = true
	case b.Type == "tool_result" && role == "user":
		if !uses[b.ToolUseID] {
			return errors.New("tool_result: answers no earlier tool_use")
		}
	default:
		return fmt.Errorf("type %q not allowed in a %s message", b.Type, role)
	}
	return nil
}

func (anthropic) reply(step Step, callID string, args json.RawMessage) any {
	content := []map[string]any{}
	if step.Text != "" {
		content = append(content, map[string]any{"type": "text", "text": step.Text})
	}
	stop := "end_turn"
	if step.Tool != "" {
		content = append(content, map[string]any{"type": "tool_use", "id": "toolu_" + callID, "name": step.Tool, "input": args})
		stop = "tool_use"
	}
	return map[string]any{
		"id": "msg_" + callID, "type": "message", "role": "assistant", "model": "scripted-model",
		"content": content, "stop_reason": stop,
		"usage": map[string]any{"input_tokens": step.InputTokens, "output_tokens": step.OutputTokens},
	}
}

func (anthropic) fail(w http.ResponseWriter, status int, why string) {
	typ := "api_error"
	switch {
	case status == http.StatusUnauthorized:
		typ = "authentication_error"
	case status < 500:
		typ = "invalid_request_error"
	}
	writeJSON(w, status, map[string]any{"type": "error", "error": map[string]any{
		"type": typ, "message": why + "; " + ErrorText,
	}})
}
