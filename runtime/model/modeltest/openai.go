package modeltest

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
)

// openAI is the chat-completions format. The server decodes both formats with its own types,
// never the adapters': a wire mistake shared by the two would pass every test unseen.
type openAI struct{}

type oaRequest struct {
	Model    string      `json:"model"`
	Messages []oaMessage `json:"messages"`
	Tools    []struct {
		Type     string `json:"type"`
		Function *struct {
			Name string `json:"name"`
		} `json:"function"`
	} `json:"tools"`
}

type oaMessage struct {
	Role       string       `json:"role"`
	Content    *string      `json:"content"`
	ToolCalls  []oaToolCall `json:"tool_calls,omitempty"`
	ToolCallID string       `json:"tool_call_id,omitempty"`
}

type oaToolCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

func (openAI) check(_ http.Header, body []byte) error {
	var req oaRequest
	if err := json.Unmarshal(body, &req); err != nil {
		return errors.New("body is not a chat-completions request")
	}
	if req.Model == "" {
		return errors.New("model: required")
	}
	if len(req.Messages) == 0 {
		return errors.New("messages: expected at least one")
	}
	calls := map[string]bool{}
	for i, m := range req.Messages {
		switch m.Role {
		case "system", "user":
			if m.Content == nil {
				return fmt.Errorf("messages[%d].content: required", i)
			}
		case "assistant":
			if m.Content == nil && len(m.ToolCalls) == 0 {
				return fmt.Errorf("messages[%d]: expected content or tool_calls", i)
			}
			for j, c := range m.ToolCalls {
				if c.ID == "" || c.Type != "function" || c.Function.Name == "" {
					return fmt.Errorf("messages[%d].tool_calls[%d]: expected id, type function and a name", i, j)
				}
				var obj map[string]any
				if json.Unmarshal([]byte(c.Function.Arguments), &obj) != nil || obj == nil {
					return fmt.Errorf("messages[%d].tool_calls[%d].function.arguments: expected a JSON object in a string", i, j)
				}
				calls[c.ID] = true
			}
		case "tool":
			if !calls[m.ToolCallID] {
				return fmt.Errorf("messages[%d].tool_call_id: answers no earlier tool call", i)
			}
			if m.Content == nil {
				return fmt.Errorf("messages[%d].content: required", i)
			}
		default:
			return fmt.Errorf("messages[%d].role: unknown", i)
		}
	}
	for i, t := range req.Tools {
		if t.Type != "function" || t.Function == nil || t.Function.Name == "" {
			return fmt.Errorf("tools[%d]: expected type function with a name", i)
		}
	}
	return nil
}

func (openAI) reply(step Step, callID string, args json.RawMessage) any {
	msg := map[string]any{"role": "assistant", "content": nil}
	if step.Text != "" {
		msg["content"] = step.Text
	}
	finish := "stop"
	if step.Tool != "" {
		msg["tool_calls"] = []map[string]any{{
			"id": callID, "type": "function",
			"function": map[string]any{"name": step.Tool, "arguments": string(args)},
		}}
		finish = "tool_calls"
	}
	return map[string]any{
		"id": "chatcmpl-" + callID, "object": "chat.completion", "model": "scripted-model",
		"choices": []map[string]any{{"index": 0, "message": msg, "finish_reason": finish}},
		"usage": map[string]any{"prompt_tokens": step.InputTokens, "completion_tokens": step.OutputTokens,
			"total_tokens": step.InputTokens + step.OutputTokens},
	}
}

func (openAI) fail(w http.ResponseWriter, status int, why string) {
	typ := "server_error"
	if status < 500 {
		typ = "invalid_request_error"
	}
	writeJSON(w, status, map[string]any{"error": map[string]any{
		"message": why + "; " + ErrorText, "type": typ, "param": nil, "code": nil,
	}})
}
