package model_test

import (
	"encoding/json"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/model"
	"github.com/fastbrowser/fastbrowser/runtime/model/modeltest"
)

// conversation is a second turn: the goal, the model's tool call, the tool's result, and
// the page as it is now.
var conversation = model.Request{
	System: "you drive a browser",
	Messages: []model.Message{
		{Role: model.RoleUser, Text: "press the button"},
		{Role: model.RoleAssistant, Call: &model.ToolCall{ID: "call_1", Name: "click", Arguments: json.RawMessage(`{"ref":"e12"}`)}},
		{Role: model.RoleTool, ResultOf: "call_1", Text: "clicked"},
		{Role: model.RoleUser, Text: "the page now"},
	},
	Tools: []model.Tool{clickTool},
}

// The OpenAI body: system first, the assistant's tool call with its arguments as a string,
// the tool message answering its id, one function tool, tool_choice auto, no parallel
// calls, the token limit, and store:false.
func TestOpenAIRequestBody(t *testing.T) {
	srv := modeltest.Start(t, modeltest.Step{Text: "done"})
	a, _, _ := adapter(t, srv.Config(model.ProviderOpenAI, ""), "")
	if _, err := complete(a, conversation); err != nil {
		t.Fatal(err)
	}
	r := srv.Requests()[0]
	if r.Path != "/v1/chat/completions" {
		t.Errorf("path %s, want /v1/chat/completions", r.Path)
	}
	sameJSON(t, "the OpenAI request", r.Body, `{
		"model": "scripted-model",
		"messages": [
			{"role": "system", "content": "you drive a browser"},
			{"role": "user", "content": "press the button"},
			{"role": "assistant", "content": null, "tool_calls": [
				{"id": "call_1", "type": "function", "function": {"name": "click", "arguments": "{\"ref\":\"e12\"}"}}]},
			{"role": "tool", "tool_call_id": "call_1", "content": "clicked"},
			{"role": "user", "content": "the page now"}
		],
		"tools": [{"type": "function", "function": {"name": "click", "description": "click an element",
			"parameters": {"type":"object","properties":{"ref":{"type":"string"}},"required":["ref"]}}}],
		"tool_choice": "auto",
		"parallel_tool_calls": false,
		"max_tokens": 1024,
		"store": false
	}`)
}

// The Anthropic body: the system prompt apart, the tool call as a tool_use block, the
// result as a tool_result block merged with the next user text (roles alternate), one tool
// with input_schema, tool_choice auto without parallel use, and the version header.
func TestAnthropicRequestBody(t *testing.T) {
	srv := modeltest.Start(t, modeltest.Step{Text: "done"})
	a, _, _ := adapter(t, srv.Config(model.ProviderAnthropic, ""), "")
	if _, err := complete(a, conversation); err != nil {
		t.Fatal(err)
	}
	r := srv.Requests()[0]
	if r.Path != "/v1/messages" || r.Header.Get("Anthropic-Version") != "2023-06-01" {
		t.Errorf("path %s, anthropic-version %q; want /v1/messages, 2023-06-01", r.Path, r.Header.Get("Anthropic-Version"))
	}
	sameJSON(t, "the Anthropic request", r.Body, `{
		"model": "scripted-model",
		"max_tokens": 1024,
		"system": "you drive a browser",
		"messages": [
			{"role": "user", "content": [{"type": "text", "text": "press the button"}]},
			{"role": "assistant", "content": [{"type": "tool_use", "id": "call_1", "name": "click", "input": {"ref": "e12"}}]},
			{"role": "user", "content": [
				{"type": "tool_result", "tool_use_id": "call_1", "content": "clicked"},
				{"type": "text", "text": "the page now"}]}
		],
		"tools": [{"name": "click", "description": "click an element",
			"input_schema": {"type":"object","properties":{"ref":{"type":"string"}},"required":["ref"]}}],
		"tool_choice": {"type": "auto", "disable_parallel_tool_use": true}
	}`)
}

// A reply's tool call goes back into the next request as the model gave it, and the
// scripted server (which refuses a result answering no earlier call) accepts the turn.
func TestToolCallRoundTrip(t *testing.T) {
	for _, p := range providers {
		t.Run(p, func(t *testing.T) {
			srv := modeltest.Start(t, modeltest.Step{Tool: "click", Args: map[string]string{"ref": "e3"}}, modeltest.Step{Text: "done"})
			a, _, _ := adapter(t, srv.Config(p, ""), "")
			req := goal("press it")
			reply, err := complete(a, req)
			if err != nil {
				t.Fatal(err)
			}
			call := reply.Calls[0]
			req.Messages = append(req.Messages,
				model.Message{Role: model.RoleAssistant, Call: &call},
				model.Message{Role: model.RoleTool, ResultOf: call.ID, Text: "clicked"})
			if reply, err = complete(a, req); err != nil || reply.Text != "done" {
				t.Fatalf("second turn: %+v, %v; want done", reply, err)
			}
		})
	}
}
