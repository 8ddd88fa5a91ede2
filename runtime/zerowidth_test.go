package runtime_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/transport"
)

// zeroWidthPage writes its names with zero-width characters in them, as Swagger UI writes
// its paths ("/pet\u200b/{petId}"), and counts the clicks on its button.
const zeroWidthPage = `<!doctype html><title>Zero width</title>
<h1>get ` + "\u200b/pet\u200b/{petId}" + `</h1>
<p>Word` + "\u2060joined\ufeff and\u200c\u200d" + ` text</p>
<button onclick="document.getElementById('n').textContent = +document.getElementById('n').textContent + 1">Save` + "\u200b" + ` draft</button>
<p>Clicks: <span id="n">0</span></p>`

// TestOutlineDropsZeroWidthCharacters: the outline's names and text hold no zero-width
// characters (Playwright strips them from its snapshot too), and a role and name locator
// finds the element by its name as the outline shows it, exactly.
func TestOutlineDropsZeroWidthCharacters(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(zeroWidthPage))
	}))
	defer srv.Close()
	rt := runtimetest.Open(t)
	if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: srv.URL}); err != nil {
		t.Fatal(err)
	}
	ob := observe(t, rt)
	for _, zw := range []string{"\u200b", "\u200c", "\u200d", "\u2060", "\ufeff"} {
		if strings.Contains(ob.Text, zw) {
			t.Errorf("outline holds %q:\n%s", zw, ob.Text)
		}
	}
	for _, want := range []string{`"get /pet/{petId}"`, "Wordjoined and text", `button [e`, `"Save draft"`} {
		if !strings.Contains(ob.Text, want) {
			t.Errorf("outline lacks %s:\n%s", want, ob.Text)
		}
	}
	exact := true
	if _, err := transport.Dispatch(bg, rt, transport.Act{Action: "click", Target: transport.Target{Role: "button", Name: transport.Match("Save draft"), Exact: &exact}}); err != nil {
		t.Fatalf("click by the name the outline shows: %v", err)
	}
	if _, err := transport.Dispatch(bg, rt, transport.Assert{Kind: transport.AssertTextContains, Value: "Clicks: 1"}); err != nil {
		t.Fatalf("the click did not reach the button: %v", err)
	}
	// Locators matched in the page fold text the same way.
	if _, err := transport.Dispatch(bg, rt, transport.Act{Action: "click", Target: transport.Target{Text: transport.Match("Save draft"), Exact: &exact}}); err != nil {
		t.Fatalf("click by text as the outline shows it: %v", err)
	}
	if _, err := transport.Dispatch(bg, rt, transport.Assert{Kind: transport.AssertTextContains, Value: "Clicks: 2"}); err != nil {
		t.Fatalf("the second click did not reach the button: %v", err)
	}
}
