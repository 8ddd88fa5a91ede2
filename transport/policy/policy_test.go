package policy

import (
	"errors"
	"strings"
	"testing"
)

func TestNormalizeOrigin(t *testing.T) {
	good := map[string]string{
		"http://127.0.0.1:4310":   "http://127.0.0.1:4310",
		"HTTP://Example.COM":      "http://example.com",
		"https://example.com:443": "https://example.com",
		"http://example.com:80/":  "http://example.com",
		"http://[::1]:8080":       "http://[::1]:8080",
	}
	for in, want := range good {
		got, err := NormalizeOrigin(in)
		if err != nil || got != want {
			t.Errorf("NormalizeOrigin(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "example.com", "ftp://x", "http://u:p@x", "http://x/path", "http://x?q", "http://*.x", "file:///etc", "*"} {
		if _, err := NormalizeOrigin(bad); err == nil {
			t.Errorf("NormalizeOrigin(%q) accepted", bad)
		}
	}
}

func TestCheckURL(t *testing.T) {
	p, err := Parse([]string{"http://127.0.0.1:4310"})
	if err != nil {
		t.Fatal(err)
	}
	if o, err := p.CheckURL("http://127.0.0.1:4310/form?x=1"); err != nil || o != "http://127.0.0.1:4310" {
		t.Fatalf("allowed URL refused: %q %v", o, err)
	}
	for _, bad := range []string{
		"http://127.0.0.1:4311/", "http://user:pw@127.0.0.1:4310/", "file:///etc/passwd",
		"data:text/html,hi", "javascript:alert(1)", "/relative", "about:blank", "chrome://version",
	} {
		var de *DeniedError
		if _, err := p.CheckURL(bad); !errors.As(err, &de) {
			t.Errorf("CheckURL(%q) = %v, want DeniedError", bad, err)
		}
	}
	if _, err := AllowAll().CheckURL("https://anything.example/x"); err != nil {
		t.Errorf("* refused an https URL: %v", err)
	}
	if _, err := AllowAll().CheckURL("data:text/html,x"); err == nil {
		t.Error("* allowed data:")
	}
}

func TestNarrow(t *testing.T) {
	base, _ := Parse([]string{"http://a.test", "http://b.test"})
	if n, err := base.Narrow([]string{"http://a.test"}); err != nil || !n.AllowsOrigin("http://a.test") || n.AllowsOrigin("http://b.test") {
		t.Fatalf("narrow to a: %v %v", n, err)
	}
	var de *DeniedError
	if _, err := base.Narrow([]string{"http://c.test"}); !errors.As(err, &de) {
		t.Errorf("narrowing outside the base: %v", err)
	}
	if _, err := base.Narrow([]string{"*"}); !errors.As(err, &de) {
		t.Errorf("narrowing a list base to *: %v", err)
	}
	if _, err := base.Narrow(nil); err == nil {
		t.Error("empty narrowing accepted")
	}
	if _, err := base.Narrow([]string{"not an origin"}); err == nil || errors.As(err, &de) {
		t.Errorf("invalid entry: %v", err)
	}
}

func TestInternationalisedHostsNormalise(t *testing.T) {
	got, err := NormalizeOrigin("https://BÜCHER.example")
	if err != nil || got != "https://xn--bcher-kva.example" {
		t.Fatalf("IDNA origin = %q, %v", got, err)
	}
	p, _ := Parse([]string{"https://bücher.example"})
	if _, err := p.CheckURL("https://xn--bcher-kva.example/a"); err != nil {
		t.Errorf("punycode form of an allowed Unicode origin refused: %v", err)
	}
	if _, err := p.CheckURL("https://BÜCHER.example/a"); err != nil {
		t.Errorf("upper-case Unicode host refused: %v", err)
	}
}

// TestOriginConfusables is the egress issue's acceptance 4: exact comparison refuses look-alikes.
func TestOriginConfusables(t *testing.T) {
	p, _ := Parse([]string{"http://127.0.0.1:4310"})
	for _, bad := range []string{
		"http://127.0.0.1:4310.evil.test/", "http://127.0.0.1:4310@evil.test/", "http://127.0.0.1:4311/",
		"https://127.0.0.1:4310/", "http://127.0.0.1/", "http://127.0.0.1:4310\\@evil.test/", "http://[::1]:4310/",
	} {
		if _, err := p.CheckURL(bad); err == nil {
			t.Errorf("CheckURL(%q) allowed a look-alike", bad)
		}
	}
	for _, good := range []string{"HTTP://127.0.0.1:4310/x", "http://127.0.0.1:4310", "http://127.0.0.1:4310/?q#f"} {
		if _, err := p.CheckURL(good); err != nil {
			t.Errorf("CheckURL(%q) = %v", good, err)
		}
	}
	h, _ := Parse([]string{"http://Example.COM"})
	if _, err := h.CheckURL("http://EXAMPLE.com:80/"); err != nil {
		t.Errorf("case and default port variants: %v", err)
	}
}

// TestRefusalQuotesWholeCharacters: a long origin quoted in a refusal is cut on a character
// boundary, so the message shows no broken byte.
func TestRefusalQuotesWholeCharacters(t *testing.T) {
	_, err := NormalizeOrigin("http://ab" + strings.Repeat("é", 60) + ".example/path")
	if err == nil || strings.Contains(err.Error(), `\x`) || !strings.Contains(err.Error(), "é…") {
		t.Fatalf("err = %v: want the origin cut after a whole é and marked", err)
	}
}
