package runtime_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/model"
	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/transport"
)

// TestModelKeyMaskedBeforeFirstModelCall: the API key is a secret of the session from the
// start, not only from the first model call: a page that shows it (a provider's dashboard)
// observed before any task ran does not put it in the output.
func TestModelKeyMaskedBeforeFirstModelCall(t *testing.T) {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, `<!doctype html><title>Keys</title><p>Your key: %s</p>`, taskAPIKey)
	}))
	t.Cleanup(site.Close)
	b, err := runtimetest.Browser()
	if err != nil {
		t.Fatal(err)
	}
	cfg := model.Config{Provider: model.ProviderOpenAI, Model: "m", BaseURL: "http://127.0.0.1:9/v1", APIKeyEnv: taskAPIEnv}
	rt := runtimetest.OpenWith(t, runtimetest.Options{CDPURL: b.WebSocketURL(), AllowedOrigins: []string{site.URL}, Model: &cfg,
		LookupEnv: func(k string) (string, bool) { return taskAPIKey, k == taskAPIEnv }})
	if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + "/"}); err != nil {
		t.Fatal(err)
	}
	ob, err := transport.Dispatch(bg, rt, transport.Observe{})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(ob.Text, taskAPIKey) || !strings.Contains(ob.Text, "Your key") {
		t.Errorf("the observation shows the API key unmasked:\n%s", ob.Text)
	}
}
