package runtime_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/artifacts"
	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/transport"
)

// The fixture's /clip page echoes what is typed into Token after padding, so that its first
// 6 characters fall inside a bound and the rest past it: read's text, an outline name and
// text, a console message, a field value an assertion reads. The runtime scrubs whole
// secrets only, so each bound must mask a typed secret before it cuts.

// openClip types the secret into /clip's Token field, in a session that keeps evidence.
func openClip(t *testing.T) (transport.Caller, *artifacts.Store) {
	t.Helper()
	site := runtimetest.Fixture()
	t.Cleanup(site.Close)
	rt, store := openWithEvidence(t, site.URL, nil)
	if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + "/clip"}); err != nil {
		t.Fatal(err)
	}
	if _, err := transport.Dispatch(bg, rt, transport.Act{Action: transport.ActType, Target: transport.Target{Role: "textbox", Name: transport.Match("Token")}, Text: transport.FromEnv("PORTAL_TOKEN")}); err != nil {
		t.Fatal(err)
	}
	return rt, store
}

// noSecretPrefix fails when text holds the first 4 or more characters of the secret.
func noSecretPrefix(t *testing.T, where, text string) {
	t.Helper()
	for n := len(secretValue); n >= 4; n-- {
		if i := strings.Index(text, secretValue[:n]); i >= 0 {
			t.Errorf("%s holds %q, the secret's first %d characters: …%s", where, secretValue[:n], n, text[max(0, i-20):min(len(text), i+n+10)])
			return
		}
	}
}

// TestReadNeverCutsASecret: the secret straddles the end of read's 20000 characters.
func TestReadNeverCutsASecret(t *testing.T) {
	t.Parallel()
	rt, _ := openClip(t)
	rd, err := transport.Dispatch(bg, rt, transport.Read{})
	if err != nil {
		t.Fatal(err)
	}
	if !rd.Truncated || !strings.HasPrefix(rd.Text, strings.Repeat("x", 19994)) || len(rd.Text) > 20000 {
		t.Fatalf("read: truncated %v, %d bytes, starting %q", rd.Truncated, len(rd.Text), rd.Text[:min(len(rd.Text), 20)])
	}
	noSecretPrefix(t, "read's text", rd.Text)
}

// TestOutlineNeverCutsASecret: the secret straddles the 200-character cut of a button's name
// and of a paragraph's text, in observe's outline and in a not-found message naming the
// button as the near miss.
func TestOutlineNeverCutsASecret(t *testing.T) {
	t.Parallel()
	rt, _ := openClip(t)
	ob := observe(t, rt)
	nodes, _ := json.Marshal(ob.Nodes)
	if !strings.Contains(ob.Text, strings.Repeat("x", 193)) {
		t.Fatalf("the echo is not in the outline:\n%s", ob.Text)
	}
	noSecretPrefix(t, "the outline's text", ob.Text)
	noSecretPrefix(t, "the outline's nodes", string(nodes))
	pad := strings.Repeat("x", 10)
	oe := assertTester{t, rt}.fails(transport.Assert{Kind: transport.AssertTextContains, Value: "y", Target: exactRole("button", pad), Wait: transport.WaitMode(transport.WaitNone)},
		transport.CodeElementNotFound, `no button named "`+pad+`" (one read); a button named "xxxx`)
	noSecretPrefix(t, "the not-found message", oe.Message)
}

// TestConsoleSummaryNeverCutsASecret: the secret straddles the 300-character cut of a console
// message, which failure evidence keeps.
func TestConsoleSummaryNeverCutsASecret(t *testing.T) {
	t.Parallel()
	rt, store := openClip(t)
	_, err := transport.Dispatch(bg, rt, transport.Assert{Kind: transport.AssertTitle, Value: "Something else", Wait: "none"})
	if oe := transport.AsOperationError("", err); oe.Code != transport.CodeAssertionFailed {
		t.Fatalf("error %v, want assertion_failed", err)
	}
	evidence, unavailable := transport.EvidenceOf(err)
	seen := false
	for _, m := range evidence {
		b, err := os.ReadFile(filepath.Join(store.Root(), m.Path))
		if err != nil {
			t.Fatal(err)
		}
		if m.Kind == "console" {
			seen = strings.Contains(string(b), strings.Repeat("x", 294))
		}
		noSecretPrefix(t, "the "+m.Kind+" evidence", string(b))
	}
	if !seen {
		t.Fatalf("no console evidence with the echo: %+v unavailable %+v", evidence, unavailable)
	}
}

// TestAssertFieldValueBounded: a value assertion reads at most budgets.FieldValueChars of a
// field's value, in the page, and its message says the value was cut; the secret straddling
// that cut leaves nothing of itself in the message.
func TestAssertFieldValueBounded(t *testing.T) {
	t.Parallel()
	rt, _ := openClip(t)
	oe := assertTester{t, rt}.fails(transport.Assert{Kind: transport.AssertValue, Value: "x", Target: role("textbox", "Copy"), Wait: transport.WaitMode(transport.WaitNone)},
		transport.CodeAssertionFailed, `value of textbox "Copy" was not "x" on one read (value is "`+strings.Repeat("x", 200)+`…"; only its first 20000 characters were read)`)
	noSecretPrefix(t, "the assertion's message", oe.Message)
}
