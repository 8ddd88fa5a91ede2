package runtime_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"image"
	"image/png"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fastbrowser/fastbrowser/artifacts"
	"github.com/fastbrowser/fastbrowser/runtime"
	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/transport"
)

// secretValue is typed from the environment; its every encoding must stay out of outputs.
const secretValue = "S3cr3t-Tok&n<42>"

func openWithEvidence(t testing.TB, site string, rules []transport.RedactionRule) (transport.Caller, *artifacts.Store) {
	t.Helper()
	return openWithEvidenceOrigins(t, []string{site}, rules)
}

// encodings of the secret a sweep looks for.
func encodings(s string) []string {
	return []string{s, url.QueryEscape(s), url.PathEscape(s), base64.StdEncoding.EncodeToString([]byte(s)),
		strings.TrimSuffix(strings.TrimPrefix(mustJSONString(s), `"`), `"`), "S3cr3t-Tok&amp;n&lt;42&gt;"}
}

// TestFailureEvidenceRedacted types a secret into a text and a password field of a page that
// echoes it into its text, title, URL and console, then fails: the failure carries evidence
// (screenshot, console, network, outline), the error is unchanged, and no artifact holds
// the secret in any encoding.
func TestFailureEvidenceRedacted(t *testing.T) {
	t.Parallel()
	site := runtimetest.Fixture()
	defer site.Close()
	rt, store := openWithEvidence(t, site.URL, nil)
	if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + "/echo"}); err != nil {
		t.Fatal(err)
	}
	for _, field := range []transport.Target{{Role: "textbox", Name: transport.Match("Token")}, {Role: "textbox", Name: transport.Match("Password")}} {
		res, err := transport.Dispatch(bg, rt, transport.Act{Action: transport.ActType, Target: field, Text: transport.FromEnv("PORTAL_TOKEN")})
		if err != nil {
			t.Fatalf("type into %s: %v", field.Name, err)
		}
		if *res.Receipt.TypedLength != len([]rune(secretValue)) {
			t.Fatalf("typed length %d", *res.Receipt.TypedLength)
		}
	}
	rd, err := transport.Dispatch(bg, rt, transport.Read{})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(rd.Text, secretValue) || !strings.Contains(rd.Text, "[secret]") {
		t.Fatalf("read text not scrubbed: %q", rd.Text)
	}
	_, err = transport.Dispatch(bg, rt, transport.Assert{Kind: transport.AssertTextContains, Value: "never on this page", Wait: "none"})
	oe := transport.AsOperationError("", err)
	if oe.Code != transport.CodeAssertionFailed {
		t.Fatalf("error %v, want assertion_failed", err)
	}
	evidence, unavailable := transport.EvidenceOf(err)
	kinds := map[string]artifacts.Meta{}
	for _, m := range evidence {
		kinds[m.Kind] = m
		if !m.LocalOnly || m.ModelForwarded || m.SHA256 == "" {
			t.Errorf("metadata %+v", m)
		}
	}
	for _, k := range []string{"screenshot", "console", "network", "outline"} {
		if _, ok := kinds[k]; !ok {
			t.Fatalf("no %s evidence: %+v unavailable %+v", k, evidence, unavailable)
		}
	}
	console, err := os.ReadFile(filepath.Join(store.Root(), kinds["console"].Path))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(console, []byte("typed [secret]")) {
		t.Errorf("console summary does not show the masked echo: %s", console)
	}
	sweep(t, store.Root())
}

func sweep(t *testing.T, root string) {
	t.Helper()
	err := filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, e := range encodings(secretValue) {
			if bytes.Contains(b, []byte(e)) {
				t.Errorf("%s holds the secret (%q)", p, e)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestRedactionNotProven: a rule matching a field in a modal dialog (top layer, above any
// mask) keeps no screenshot, says redaction_not_proven, and leaves the failure as it was.
func TestRedactionNotProven(t *testing.T) {
	t.Parallel()
	site := runtimetest.Fixture()
	defer site.Close()
	rt, _ := openWithEvidence(t, site.URL, []transport.RedactionRule{{Label: "Account number"}})
	if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + "/unmaskable"}); err != nil {
		t.Fatal(err)
	}
	_, err := transport.Dispatch(bg, rt, transport.Assert{Kind: transport.AssertTitle, Value: "Something else", Wait: "none"})
	oe := transport.AsOperationError("", err)
	if oe.Code != transport.CodeAssertionFailed {
		t.Fatalf("error %v, want assertion_failed", err)
	}
	evidence, unavailable := transport.EvidenceOf(err)
	for _, m := range evidence {
		if m.Kind == "screenshot" {
			t.Fatalf("a screenshot was kept: %+v", m)
		}
	}
	found := false
	for _, u := range unavailable {
		found = found || u.Part == "screenshot" && u.Code == transport.CodeRedactionNotProven
	}
	if !found {
		t.Fatalf("unavailable %+v", unavailable)
	}
}

// TestFailureEvidenceHungPage: on a page whose main thread spins, failure evidence gives up
// within its budget, says what it could not capture, and the error stays the operation's.
func TestFailureEvidenceHungPage(t *testing.T) {
	t.Parallel()
	site := runtimetest.Fixture()
	defer site.Close()
	rt, _ := openWithEvidence(t, site.URL, nil)
	// The spin starts 2 s after load: the navigation must be over first (it once timed out
	// on a loaded machine when the spin began 300 ms after load).
	if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + "/hang?after=2000"}); err != nil {
		t.Fatal(err)
	}
	time.Sleep(2500 * time.Millisecond)
	_, err := transport.Dispatch(bg, rt, transport.Assert{Kind: transport.AssertTextContains, Value: "never"})
	oe := transport.AsOperationError("", err)
	if oe.Code == "" || oe.Code == transport.CodeInternal {
		t.Fatalf("error %v", err)
	}
	evidence, unavailable := transport.EvidenceOf(err)
	timedOut := false
	for _, u := range unavailable {
		timedOut = timedOut || u.Code == transport.CodeTimeout
	}
	if !timedOut {
		t.Fatalf("evidence %+v unavailable %+v: expected parts to time out", evidence, unavailable)
	}
	t.Logf("error %s; evidence %d parts, unavailable %+v", oe.Code, len(evidence), unavailable)
}

func mustJSONString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// openWithEvidenceOrigins is openWithEvidence for a session allowing several origins.
func openWithEvidenceOrigins(t testing.TB, origins []string, rules []transport.RedactionRule) (transport.Caller, *artifacts.Store) {
	t.Helper()
	store := evidenceStore(t, "evidence-test")
	b, err := runtimetest.Browser()
	if err != nil {
		t.Fatal(err)
	}
	rt := runtimetest.OpenWith(t, runtimetest.Options{CDPURL: b.WebSocketURL(), AllowedOrigins: origins,
		LookupEnv: func(name string) (string, bool) { return secretValue, name == "PORTAL_TOKEN" },
		Evidence:  &runtime.EvidenceOptions{Store: store, RunID: "run-1", Owner: "evidence-test", Redaction: rules, OnFailure: true}})
	return rt, store
}

// evidenceStore is a private evidence store for one test, closed with it.
func evidenceStore(t testing.TB, owner string) *artifacts.Store {
	t.Helper()
	store, err := artifacts.Open(filepath.Join(t.TempDir(), "artifacts"), owner)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	return store
}

// evidencePNG decodes the screenshot a failure's evidence kept.
func evidencePNG(t *testing.T, store *artifacts.Store, failure error) image.Image {
	t.Helper()
	evidence, unavailable := transport.EvidenceOf(failure)
	for _, m := range evidence {
		if m.Kind != "screenshot" {
			continue
		}
		f, err := os.Open(filepath.Join(store.Root(), m.Path))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		img, err := png.Decode(f)
		if err != nil {
			t.Fatal(err)
		}
		return img
	}
	t.Fatalf("no screenshot kept: evidence %+v, unavailable %+v", evidence, unavailable)
	return nil
}

func rgbAt(img image.Image, x, y int) [3]uint8 {
	r, g, b, _ := img.At(x, y).RGBA()
	return [3]uint8{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8)}
}
