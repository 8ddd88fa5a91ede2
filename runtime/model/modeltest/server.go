// Package modeltest is a scripted model endpoint for tests: an httptest server that answers
// each POST with the next Step of its script, in the wire format of the path it was called
// on (OpenAI chat completions at …/chat/completions, Anthropic messages at …/v1/messages).
// It records every request, refuses (HTTP 400) one that is not well-formed for its format,
// and answers 500 past the end of the script. It stands in for the model only, never for
// the browser.
package modeltest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/model"
)

// Step is one scripted answer.
type Step struct {
	Tool                      string // the tool call to answer ("" : a text-only reply)
	Args                      any    // the call's arguments (marshalled to a JSON object)
	Text                      string // reply text
	InputTokens, OutputTokens int
	Status                    int // non-zero: answer this HTTP status with an error body instead
	// Hold, when set, keeps the request waiting until the test releases it (or the client
	// gives up on it: a cancelled model call), so a test can act while a call is in flight.
	Hold *Hold
}

// Recorded is one request the server received.
type Recorded struct {
	Path   string
	Header http.Header
	Body   []byte
}

// ErrorText is the free text of every error body the server sends (a refusal, a scripted
// Status, the end of the script). An adapter must never repeat it: a real endpoint's error
// text may echo the prompt.
const ErrorText = "modeltest says: the prompt was ECHOED-PROMPT"

// maxRequestBytes bounds a request body read; a model request is far smaller.
const maxRequestBytes = 8 << 20

// Server is a running scripted endpoint.
type Server struct {
	srv *httptest.Server

	mu       sync.Mutex
	script   []Step
	next     int
	requests []Recorded
}

// Start runs a server answering script in order; it is closed by t.Cleanup.
func Start(t testing.TB, script ...Step) *Server {
	t.Helper()
	s := &Server{script: script}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.srv.Close)
	return s
}

// URL is the server's root URL.
func (s *Server) URL() string { return s.srv.URL }

// Config returns a model.Config for provider whose BaseURL points at the server (openai:
// URL + "/v1", so /chat/completions lands on it; anthropic: the URL, /v1/messages appended).
func (s *Server) Config(provider, apiKeyEnv string) model.Config {
	base := s.srv.URL
	if provider == model.ProviderOpenAI {
		base += "/v1"
	}
	return model.Config{Provider: provider, Model: "scripted-model", BaseURL: base, APIKeyEnv: apiKeyEnv}
}

// Requests returns a copy of every request received so far, in order.
func (s *Server) Requests() []Recorded {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Recorded(nil), s.requests...)
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxRequestBytes))
	s.mu.Lock()
	s.requests = append(s.requests, Recorded{Path: r.URL.Path, Header: r.Header.Clone(), Body: body})
	s.mu.Unlock()

	var f format
	switch {
	case strings.HasSuffix(r.URL.Path, "/chat/completions"):
		f = openAI{}
	case strings.HasSuffix(r.URL.Path, "/v1/messages"):
		f = anthropic{}
	default:
		http.Error(w, "modeltest: no endpoint at "+r.URL.Path, http.StatusNotFound)
		return
	}
	if r.Method != http.MethodPost {
		f.fail(w, http.StatusMethodNotAllowed, "expected POST")
		return
	}
	if err != nil {
		f.fail(w, http.StatusBadRequest, "unreadable body")
		return
	}
	if err := f.check(r.Header, body); err != nil {
		f.fail(w, http.StatusBadRequest, err.Error())
		return
	}
	s.mu.Lock()
	n := s.next
	s.next++
	s.mu.Unlock()
	if n >= len(s.script) {
		f.fail(w, http.StatusInternalServerError, "past the end of the script")
		return
	}
	step := s.script[n]
	if step.Hold != nil && !step.Hold.wait(r) {
		return // the client cancelled the call: nothing is answered
	}
	if step.Status != 0 {
		f.fail(w, step.Status, "scripted failure")
		return
	}
	args := []byte("{}")
	if step.Args != nil {
		if args, err = json.Marshal(step.Args); err != nil {
			f.fail(w, http.StatusInternalServerError, "step arguments do not marshal")
			return
		}
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(f.reply(step, fmt.Sprintf("call_%d", n+1), args))
}

// format is one provider's wire format.
type format interface {
	check(h http.Header, body []byte) error
	reply(step Step, callID string, args json.RawMessage) any
	fail(w http.ResponseWriter, status int, why string)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
