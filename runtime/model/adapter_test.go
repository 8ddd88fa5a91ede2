package model_test

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/runtime/model"
	"github.com/fastbrowser/fastbrowser/runtime/model/modeltest"
	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/secrets"
)

// Behaviour both wire formats share, run against the scripted server in each.

func TestToolCallReply(t *testing.T) {
	for _, p := range providers {
		t.Run(p, func(t *testing.T) {
			srv := modeltest.Start(t, modeltest.Step{Tool: "click", Args: map[string]any{"ref": "e12"}, Text: "clicking", InputTokens: 321, OutputTokens: 17})
			a, _, _ := adapter(t, srv.Config(p, ""), "")
			reply, err := complete(a, goal("press the button"))
			if err != nil {
				t.Fatal(err)
			}
			if len(reply.Calls) != 1 || reply.Calls[0].Name != "click" || string(reply.Calls[0].Arguments) != `{"ref":"e12"}` || reply.Calls[0].ID == "" {
				t.Errorf("calls = %+v, want one click {\"ref\":\"e12\"} with an ID", reply.Calls)
			}
			if reply.Text != "clicking" || reply.InputTokens != 321 || reply.OutputTokens != 17 {
				t.Errorf("reply = %+v, want text clicking, 321 in, 17 out", reply)
			}
		})
	}
}

func TestTextReply(t *testing.T) {
	for _, p := range providers {
		t.Run(p, func(t *testing.T) {
			srv := modeltest.Start(t, modeltest.Step{Text: "the price is 12", InputTokens: 5, OutputTokens: 4})
			a, _, _ := adapter(t, srv.Config(p, ""), "")
			reply, err := complete(a, goal("what is the price?"))
			if err != nil {
				t.Fatal(err)
			}
			if reply.Text != "the price is 12" || len(reply.Calls) != 0 || reply.InputTokens != 5 || reply.OutputTokens != 4 {
				t.Errorf("reply = %+v, want the text alone, 5 in, 4 out", reply)
			}
		})
	}
}

// The key is read on every call, only from the variable named, registered as a secret, and
// sent only in the provider's header; with no variable named, no auth header is sent.
func TestKeyReadOnEachCall(t *testing.T) {
	const first, second = "sk-first-key-0001", "sk-second-key-0002"
	for _, p := range providers {
		t.Run(p, func(t *testing.T) {
			srv := modeltest.Start(t, modeltest.Step{Text: "one"}, modeltest.Step{Text: "two"})
			a, e, keys := adapter(t, srv.Config(p, keyEnv), first)
			if _, err := complete(a, goal("first")); err != nil {
				t.Fatal(err)
			}
			e.set(keyEnv, second)
			if _, err := complete(a, goal("second")); err != nil {
				t.Fatal(err)
			}
			reqs := srv.Requests()
			if len(reqs) != 2 || keyHeader(p, reqs[0]) != first || keyHeader(p, reqs[1]) != second {
				t.Fatalf("requests carried keys %q, want %q then %q", keysOf(p, reqs), first, second)
			}
			for _, r := range reqs {
				if strings.Contains(string(r.Body), first) || strings.Contains(string(r.Body), second) {
					t.Errorf("a request body carries the key: %s", r.Body)
				}
			}
			for _, name := range e.asked {
				if name != keyEnv {
					t.Errorf("the adapter read the environment variable %s", name)
				}
			}
			if len(e.asked) != 2 {
				t.Errorf("the key was read %d times, want once per call", len(e.asked))
			}
			if keys.Len() != 2 || keys.Scrub(first+" "+second) != secrets.Mask+" "+secrets.Mask {
				t.Errorf("keys holds %d values, want both keys masked", keys.Len())
			}
		})
	}
}

func keysOf(p string, reqs []modeltest.Recorded) []string {
	var out []string
	for _, r := range reqs {
		out = append(out, keyHeader(p, r))
	}
	return out
}

func TestNoKeyNoAuthHeader(t *testing.T) {
	for _, p := range providers {
		t.Run(p, func(t *testing.T) {
			srv := modeltest.Start(t, modeltest.Step{Text: "ok"})
			a, e, _ := adapter(t, srv.Config(p, ""), "sk-unused-key-0003")
			if _, err := complete(a, goal("hello")); err != nil {
				t.Fatal(err)
			}
			h := srv.Requests()[0].Header
			if h.Get("Authorization") != "" || h.Get("X-Api-Key") != "" || len(e.asked) != 0 {
				t.Errorf("with no apiKeyEnv: Authorization %q, x-api-key %q, variables read %q; want none", h.Get("Authorization"), h.Get("X-Api-Key"), e.asked)
			}
		})
	}
}

// An unset or empty key variable, or a key too short to be masked, is refused before
// anything is sent, naming the variable and never the value.
func TestUnsetKeyVariable(t *testing.T) {
	for _, p := range providers {
		for _, value := range []string{"", "unset", "abc"} {
			t.Run(p+"/"+value, func(t *testing.T) {
				srv := modeltest.Start(t, modeltest.Step{Text: "never"})
				a, e, _ := adapter(t, srv.Config(p, keyEnv), value)
				if value == "unset" {
					delete(e.vars, keyEnv)
				}
				_, err := complete(a, goal("hello"))
				oe := wantCode(t, err, transport.CodeModelFailed)
				if !strings.Contains(oe.Message, keyEnv) || !strings.Contains(oe.Message, p) || strings.Contains(oe.Message, "abc") {
					t.Errorf("message %q, want it to name the provider and %s", oe.Message, keyEnv)
				}
				if n := len(srv.Requests()); n != 0 {
					t.Errorf("%d requests sent without a key, want none", n)
				}
			})
		}
	}
}

// An error status is reported with the provider's error type, never the body's text (which
// may echo the prompt) nor the key.
func TestErrorStatus(t *testing.T) {
	const key = "sk-rejected-key-0004"
	for _, p := range providers {
		for _, status := range []int{http.StatusUnauthorized, http.StatusInternalServerError} {
			t.Run(p+"/"+http.StatusText(status), func(t *testing.T) {
				srv := modeltest.Start(t, modeltest.Step{Status: status})
				a, _, _ := adapter(t, srv.Config(p, keyEnv), key)
				_, err := complete(a, goal("SECRET-PROMPT-TEXT"))
				oe := wantCode(t, err, transport.CodeModelFailed)
				if !strings.Contains(oe.Message, fmt.Sprintf("HTTP %d", status)) {
					t.Errorf("message %q, want the status %d", oe.Message, status)
				}
				for _, leak := range []string{"ECHOED", "modeltest says", key, "SECRET-PROMPT-TEXT"} {
					if strings.Contains(oe.Error(), leak) {
						t.Errorf("error %q repeats %q", oe.Error(), leak)
					}
				}
				if !strings.Contains(oe.Message, "_error") {
					t.Errorf("message %q, want the provider's error type", oe.Message)
				}
				if n := len(srv.Requests()); n != 1 {
					t.Errorf("%d requests, want 1 (a model call is never retried)", n)
				}
			})
		}
	}
}

func TestOversizedReply(t *testing.T) {
	for _, p := range providers {
		t.Run(p, func(t *testing.T) {
			srv := modeltest.Start(t, modeltest.Step{Text: strings.Repeat("x", budgets.ModelReplyBytes)})
			a, _, _ := adapter(t, srv.Config(p, ""), "")
			_, err := complete(a, goal("hello"))
			oe := wantCode(t, err, transport.CodeModelFailed)
			if !strings.Contains(oe.Message, "exceeds") {
				t.Errorf("message %q, want the reply bound", oe.Message)
			}
		})
	}
}

// A tool call's arguments must be one JSON object within ModelToolArgsBytes.
func TestBadToolArguments(t *testing.T) {
	for _, p := range providers {
		for name, args := range map[string]any{
			"not an object": "press it",
			"oversized":     map[string]string{"ref": strings.Repeat("e", budgets.ModelToolArgsBytes)},
		} {
			t.Run(p+"/"+name, func(t *testing.T) {
				srv := modeltest.Start(t, modeltest.Step{Tool: "click", Args: args})
				a, _, _ := adapter(t, srv.Config(p, ""), "")
				_, err := complete(a, goal("hello"))
				oe := wantCode(t, err, transport.CodeModelFailed)
				if !strings.Contains(oe.Message, `"click"`) || strings.Contains(oe.Message, "press it") {
					t.Errorf("message %q, want the tool named and not the arguments", oe.Message)
				}
			})
		}
	}
}

// hanging is an endpoint that never answers; arrived is signalled as each request comes in.
func hanging(t *testing.T) (*httptest.Server, chan struct{}) {
	arrived := make(chan struct{}, 4)
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.ReadAll(r.Body) // so the server notices the client leave
		arrived <- struct{}{}
		select {
		case <-r.Context().Done(): // the client went away
		case <-release: // the test ended
		}
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(release) }) // runs first
	return srv, arrived
}

func hangingConfig(p, url string) model.Config {
	if p == model.ProviderOpenAI {
		url += "/v1"
	}
	return model.Config{Provider: p, Model: "m", BaseURL: url}
}

func TestDeadline(t *testing.T) {
	for _, p := range providers {
		t.Run(p, func(t *testing.T) {
			srv, _ := hanging(t)
			a, _, _ := adapter(t, hangingConfig(p, srv.URL), "")
			// The server never answers, so only the deadline can end the call.
			ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
			defer cancel()
			_, err := a.Complete(ctx, goal("hello"))
			wantCode(t, err, transport.CodeTimeout)
		})
	}
}

func TestCancelled(t *testing.T) {
	for _, p := range providers {
		t.Run(p, func(t *testing.T) {
			srv, arrived := hanging(t)
			a, _, _ := adapter(t, hangingConfig(p, srv.URL), "")
			ctx, cancel := context.WithCancel(context.Background())
			go func() { <-arrived; cancel() }()
			_, err := a.Complete(ctx, goal("hello"))
			wantCode(t, err, transport.CodeCancelled)
		})
	}
}

// The proxy variables (set by TestMain to a closed port) are never consulted: the call to a
// non-loopback address (net/http never proxies loopback) still arrives directly.
func TestProxyEnvironmentIgnored(t *testing.T) {
	ip := nonLoopbackIP(t)
	for _, p := range providers {
		t.Run(p, func(t *testing.T) {
			l, err := net.Listen("tcp", net.JoinHostPort(ip, "0"))
			if err != nil {
				t.Fatal(err)
			}
			srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				if p == model.ProviderOpenAI {
					fmt.Fprint(w, `{"choices":[{"message":{"role":"assistant","content":"direct"}}],"usage":{}}`)
					return
				}
				fmt.Fprint(w, `{"content":[{"type":"text","text":"direct"}],"usage":{}}`)
			}))
			srv.Listener.Close()
			srv.Listener = l
			srv.Start()
			t.Cleanup(srv.Close)
			a, _, _ := adapter(t, hangingConfig(p, srv.URL), "")
			reply, err := complete(a, goal("hello"))
			if err != nil || reply.Text != "direct" {
				t.Fatalf("with HTTPS_PROXY=%s: reply %+v, error %v; want the direct answer", closedProxy, reply, err)
			}
		})
	}
}

// nonLoopbackIP is an address of this machine that is not loopback.
func nonLoopbackIP(t *testing.T) string {
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && !n.IP.IsLoopback() && n.IP.To4() != nil {
			return n.IP.String()
		}
	}
	t.Fatal("this machine has no non-loopback IPv4 address to prove the proxy variables unused")
	return ""
}

func TestBadConfig(t *testing.T) {
	for _, tc := range []struct {
		cfg  model.Config
		path string
	}{
		{model.Config{Provider: "gemini", Model: "m"}, "model.provider"},
		{model.Config{Provider: model.ProviderOpenAI, Model: ""}, "model.model"},
		{model.Config{Provider: model.ProviderOpenAI, Model: "m", BaseURL: "ftp://host/v1"}, "model.baseUrl"},
		{model.Config{Provider: model.ProviderAnthropic, Model: "m", BaseURL: "https://user:pw@host"}, "model.baseUrl"},
		{model.Config{Provider: model.ProviderAnthropic, Model: "m", APIKeyEnv: "NOT A NAME"}, "model.apiKeyEnv"},
	} {
		_, err := model.New(tc.cfg, nil, secrets.New())
		oe := wantCode(t, err, transport.CodeInvalidRequest)
		if oe.Path != tc.path || oe.Message == "" || strings.Contains(oe.Message, "pw") {
			t.Errorf("New(%+v) = %v, want path %s with what was expected", tc.cfg, oe, tc.path)
		}
	}
}

func TestUnreachable(t *testing.T) {
	for _, p := range providers {
		t.Run(p, func(t *testing.T) {
			a, _, _ := adapter(t, hangingConfig(p, closedProxy), "")
			_, err := complete(a, goal("hello"))
			oe := wantCode(t, err, transport.CodeModelFailed)
			if !strings.Contains(oe.Message, p) || strings.Contains(oe.Message, "127.0.0.1") {
				t.Errorf("message %q, want the provider and no address", oe.Message)
			}
		})
	}
}

// A redirect is not followed: it would resend the key and the prompt to wherever it points.
func TestRedirectNotFollowed(t *testing.T) {
	for _, p := range providers {
		t.Run(p, func(t *testing.T) {
			elsewhere := modeltest.Start(t, modeltest.Step{Text: "stolen"})
			redirector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				http.Redirect(w, r, elsewhere.URL()+r.URL.Path, http.StatusTemporaryRedirect)
			}))
			t.Cleanup(redirector.Close)
			a, _, _ := adapter(t, hangingConfig(p, redirector.URL), "sk-redirected-0005")
			_, err := complete(a, goal("hello"))
			oe := wantCode(t, err, transport.CodeModelFailed)
			if !strings.Contains(oe.Message, "HTTP 307") {
				t.Errorf("message %q, want HTTP 307", oe.Message)
			}
			if n := len(elsewhere.Requests()); n != 0 {
				t.Errorf("the redirect target got %d requests, want none", n)
			}
		})
	}
}
