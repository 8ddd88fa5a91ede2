package modeltest_test

import (
	"bytes"
	"io"
	"net/http"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/model"
	"github.com/fastbrowser/fastbrowser/runtime/model/modeltest"
)

// post sends body to the server's endpoint for provider and returns the status.
func post(t *testing.T, s *modeltest.Server, provider, body string, withVersion bool) int {
	t.Helper()
	url := s.Config(provider, "").BaseURL + "/chat/completions"
	if provider == model.ProviderAnthropic {
		url = s.Config(provider, "").BaseURL + "/v1/messages"
	}
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader([]byte(body)))
	if err != nil {
		t.Fatal(err)
	}
	if withVersion {
		req.Header.Set("anthropic-version", "2023-06-01")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.StatusCode
}

// Malformed requests are refused 400 without using a step; well-formed ones use steps in
// order, and the one past the end is answered 500.
func TestRefusesMalformed(t *testing.T) {
	for _, tc := range []struct {
		name, provider, body string
		version              bool
		want                 int
	}{
		{"openai no model", model.ProviderOpenAI, `{"messages":[{"role":"user","content":"hi"}]}`, false, 400},
		{"openai no messages", model.ProviderOpenAI, `{"model":"m","messages":[]}`, false, 400},
		{"openai orphan tool result", model.ProviderOpenAI, `{"model":"m","messages":[{"role":"user","content":"hi"},{"role":"tool","tool_call_id":"x","content":"r"}]}`, false, 400},
		{"openai tool not a function", model.ProviderOpenAI, `{"model":"m","messages":[{"role":"user","content":"hi"}],"tools":[{"type":"web"}]}`, false, 400},
		{"anthropic no version", model.ProviderAnthropic, `{"model":"m","max_tokens":5,"messages":[{"role":"user","content":"hi"}]}`, false, 400},
		{"anthropic no max_tokens", model.ProviderAnthropic, `{"model":"m","messages":[{"role":"user","content":"hi"}]}`, true, 400},
		{"anthropic assistant first", model.ProviderAnthropic, `{"model":"m","max_tokens":5,"messages":[{"role":"assistant","content":"hi"}]}`, true, 400},
		{"anthropic two user turns", model.ProviderAnthropic, `{"model":"m","max_tokens":5,"messages":[{"role":"user","content":"a"},{"role":"user","content":"b"}]}`, true, 400},
		{"anthropic orphan tool_result", model.ProviderAnthropic, `{"model":"m","max_tokens":5,"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"x"}]}]}`, true, 400},
		{"openai well-formed", model.ProviderOpenAI, `{"model":"m","messages":[{"role":"user","content":"hi"}]}`, false, 200},
		{"anthropic well-formed", model.ProviderAnthropic, `{"model":"m","max_tokens":5,"messages":[{"role":"user","content":"hi"}]}`, true, 200},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := modeltest.Start(t, modeltest.Step{Text: "ok"})
			if got := post(t, s, tc.provider, tc.body, tc.version); got != tc.want {
				t.Fatalf("status %d, want %d", got, tc.want)
			}
			if tc.want == 200 {
				if got := post(t, s, tc.provider, tc.body, tc.version); got != 500 {
					t.Errorf("past the end of the script: status %d, want 500", got)
				}
			}
			if n := len(s.Requests()); n == 0 {
				t.Error("no request recorded")
			}
		})
	}
}
