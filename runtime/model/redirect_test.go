package model_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/model/modeltest"
	"github.com/fastbrowser/fastbrowser/transport"
)

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

// A key too short to be masked is refused before it is sent.
func TestShortKeyRefused(t *testing.T) {
	for _, p := range providers {
		t.Run(p, func(t *testing.T) {
			srv := modeltest.Start(t, modeltest.Step{Text: "never"})
			a, _, _ := adapter(t, srv.Config(p, keyEnv), "abc")
			_, err := complete(a, goal("hello"))
			oe := wantCode(t, err, transport.CodeModelFailed)
			if !strings.Contains(oe.Message, keyEnv) || strings.Contains(oe.Message, "abc") {
				t.Errorf("message %q, want %s named and the key not", oe.Message, keyEnv)
			}
			if n := len(srv.Requests()); n != 0 {
				t.Errorf("%d requests sent, want none", n)
			}
		})
	}
}
