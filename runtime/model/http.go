package model

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"regexp"
	"strings"
	"sync"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/secrets"
)

// endpoint is what both adapters share: the configuration, the one environment variable
// they may read, the secrets set the key goes into, and the HTTP client.
type endpoint struct {
	cfg       Config
	lookupEnv func(string) (string, bool)
	keys      *secrets.Set
	client    *http.Client
}

// newClient builds the client of one adapter. Proxy is nil: the adapter reads no environment
// variable but the one its configuration names, so HTTP(S)_PROXY/NO_PROXY are never
// consulted — a proxy variable set for the browser's egress must not silently route the
// prompt and the key through a third party. Dial and TLS are bounded by ModelConnect; the
// whole call by the caller's ctx (no client Timeout, which would hide which bound fired).
// Redirects are not followed: a redirect would resend the key header (x-api-key is not
// among the headers Go drops across hosts) and the prompt to wherever it points.
func newClient() *http.Client {
	dialer := &net.Dialer{Timeout: budgets.ModelConnect}
	return &http.Client{
		Transport: &http.Transport{
			Proxy:               nil,
			DialContext:         dialer.DialContext,
			TLSHandshakeTimeout: budgets.ModelConnect,
			ForceAttemptHTTP2:   true,
			MaxIdleConns:        2,
		},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// failed is a model_failed error: nothing reached the page, and repeating the call would
// repeat whatever was wrong (and a model call is never retried).
func failed(format string, args ...any) *transport.OperationError {
	return transport.NewError("", transport.PhaseExecute, transport.CodeModelFailed, transport.RetryNever, transport.NotAttempted, format, args...)
}

// ended maps a call whose ctx is done to timeout or cancelled; nil when ctx is still live.
func ended(ctx context.Context, provider string) *transport.OperationError {
	code, why := transport.CodeCancelled, "was cancelled"
	switch {
	case ctx.Err() == nil:
		return nil
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		code, why = transport.CodeTimeout, "got no answer within what was left of the task's budget"
	}
	return transport.NewError("", transport.PhaseExecute, code, transport.RetryNever, transport.NotAttempted,
		"%s: the model call %s", provider, why).WithCause(ctx.Err())
}

// key reads the API key on this call (so a rotated key is picked up and none is kept) and
// registers it as a secret before it is sent. "" with no error: no key is configured.
func (e *endpoint) key() (string, error) {
	if e.cfg.APIKeyEnv == "" {
		return "", nil
	}
	v, ok := e.lookupEnv(e.cfg.APIKeyEnv)
	if !ok || v == "" {
		return "", failed("%s: the environment variable %s (model.apiKeyEnv) is not set", e.cfg.Provider, e.cfg.APIKeyEnv)
	}
	if e.keys != nil {
		if err := e.keys.Add(v); err != nil {
			// A key too short to mask would leak into every output it reached.
			return "", failed("%s: the key in %s cannot be masked (%d characters at least)", e.cfg.Provider, e.cfg.APIKeyEnv, secrets.MinLen)
		}
	}
	return v, nil
}

// call reads the key and posts body once: to defaultURL, or to the configured base URL with
// path appended. auth puts a key (when one is configured) into the header.
func (e *endpoint) call(ctx context.Context, defaultURL, path string, header http.Header, auth func(http.Header, string), body any) ([]byte, error) {
	key, err := e.key()
	if err != nil {
		return nil, err
	}
	if header == nil {
		header = http.Header{}
	}
	if key != "" {
		auth(header, key)
	}
	url := defaultURL
	if e.cfg.BaseURL != "" {
		url = strings.TrimSuffix(e.cfg.BaseURL, "/") + path
	}
	return e.post(ctx, url, header, body)
}

// post sends body to url once and returns the 2xx reply's body, read up to ModelReplyBytes.
func (e *endpoint) post(ctx context.Context, url string, header http.Header, body any) ([]byte, error) {
	p := e.cfg.Provider
	data, err := json.Marshal(body)
	if err != nil {
		return nil, failed("%s: the request could not be encoded", p).WithCause(err)
	}
	if e.keys != nil {
		// The last pass before anything leaves: the caller scrubbed what it built, but before
		// this call read the key (the first call, or a rotated key), so a page that shows the
		// key would carry it into the body.
		data = e.keys.ScrubJSON(data)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(data))
	if err != nil {
		return nil, failed("%s: the request could not be built", p).WithCause(err)
	}
	req.Header = header
	req.Header.Set("Content-Type", "application/json")
	// A POST is not retried by net/http unless nothing of it was written; nothing here retries.
	resp, err := e.client.Do(req)
	if err != nil {
		if oe := ended(ctx, p); oe != nil {
			return nil, oe
		}
		return nil, failed("%s: the endpoint could not be reached (%s)", p, reachFailure(err)).WithCause(err)
	}
	defer resp.Body.Close()
	reply, err := io.ReadAll(io.LimitReader(resp.Body, budgets.ModelReplyBytes+1))
	if err != nil {
		if oe := ended(ctx, p); oe != nil {
			return nil, oe
		}
		return nil, failed("%s: the reply could not be read (HTTP %d)", p, resp.StatusCode).WithCause(err)
	}
	if len(reply) > budgets.ModelReplyBytes {
		return nil, failed("%s: the reply exceeds %d bytes (HTTP %d)", p, budgets.ModelReplyBytes, resp.StatusCode)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, failed("%s: the endpoint answered HTTP %d%s", p, resp.StatusCode, errorTokens(reply))
	}
	return reply, nil
}

// reachFailure names why a request got no reply, in words that carry no address or text.
func reachFailure(err error) string {
	var ne net.Error
	switch {
	case errors.As(err, &ne) && ne.Timeout():
		return fmt.Sprintf("no connection within %s", budgets.ModelConnect)
	case strings.Contains(err.Error(), "connection refused"):
		return "connection refused"
	}
	return "connection failed"
}

// token is a provider's error type or code safe to repeat: a short machine word, never free
// text (an endpoint's error message may echo the prompt). Compiled on first use, like
// identifier: counted repetitions compile large, and most processes never call a model.
var token = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z_]{1,64}$`) })

// errorTokens reads an error body's error.type and error.code (OpenAI {"error":{type,code}},
// Anthropic {"error":{type}}) and returns those that are tokens, as " (a, b)".
func errorTokens(body []byte) string {
	var v struct {
		Error struct {
			Type any `json:"type"`
			Code any `json:"code"`
		} `json:"error"`
	}
	if json.Unmarshal(body, &v) != nil {
		return ""
	}
	var out []string
	for _, f := range []any{v.Error.Type, v.Error.Code} {
		if s, ok := f.(string); ok && token().MatchString(s) {
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		return ""
	}
	return " (" + strings.Join(out, ", ") + ")"
}

// callArgs checks one tool call's arguments: at most ModelToolArgsBytes, a JSON object.
func callArgs(provider, tool string, raw []byte) (json.RawMessage, error) {
	if len(raw) > budgets.ModelToolArgsBytes {
		return nil, failed("%s: the arguments of a %s call exceed %d bytes", provider, toolName(tool), budgets.ModelToolArgsBytes)
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		return nil, failed("%s: the arguments of a %s call are not a JSON object", provider, toolName(tool))
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return nil, failed("%s: the arguments of a %s call are not a JSON object", provider, toolName(tool))
	}
	return buf.Bytes(), nil
}

var identifier = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_\-]{1,64}$`) })

// toolName quotes a tool name the model gave, if it is a plain identifier; a name is
// model output and is only repeated when it cannot carry text.
func toolName(name string) string {
	if identifier().MatchString(name) {
		return fmt.Sprintf("%q", name)
	}
	return "tool"
}

// objectOr gives raw, or {} when it is empty: a call with no arguments is an empty object
// on the wire.
func objectOr(raw json.RawMessage) json.RawMessage {
	if len(bytes.TrimSpace(raw)) == 0 {
		return json.RawMessage("{}")
	}
	return raw
}

// schemaOr gives a tool's parameters schema, or the empty object schema when it has none.
func schemaOr(raw json.RawMessage) json.RawMessage {
	if len(bytes.TrimSpace(raw)) == 0 {
		return json.RawMessage(`{"type":"object","properties":{}}`)
	}
	return raw
}
