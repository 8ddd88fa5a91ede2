package policy

import (
	"errors"
	"strings"
	"testing"
)

// TestDomainEntryMatching: "*.example.com" allows the host and every subdomain, over http
// and https on any port, and refuses look-alikes and other hosts.
func TestDomainEntryMatching(t *testing.T) {
	p, err := Parse([]string{"*.Example.COM", "http://127.0.0.1:4310"})
	if err != nil {
		t.Fatal(err)
	}
	for _, good := range []string{
		"https://example.com/", "http://example.com:8080/x", "https://a.example.com/", "http://b.a.example.com:1/",
		"HTTPS://WWW.EXAMPLE.COM/", "http://127.0.0.1:4310/",
	} {
		if _, err := p.CheckURL(good); err != nil {
			t.Errorf("CheckURL(%q) = %v, want allowed", good, err)
		}
	}
	for _, bad := range []string{
		"https://evilexample.com/", "https://example.com.evil.test/", "https://example.co/", "https://xexample.com/",
		"https://example.com@evil.test/", "ftp://example.com/", "http://127.0.0.1:4311/", "http://[::1]/",
		"https://com/", "http://example.com.:80/",
	} {
		var de *DeniedError
		if _, err := p.CheckURL(bad); !errors.As(err, &de) {
			t.Errorf("CheckURL(%q) = %v, want DeniedError", bad, err)
		}
	}
	if got := strings.Join(p.Origins(), " "); got != "*.example.com http://127.0.0.1:4310" {
		t.Errorf("Origins() = %s", got)
	}
	if again, err := Parse(p.Origins()); err != nil || !again.AllowsOrigin("https://x.example.com") {
		t.Errorf("Origins() does not parse back to the same policy: %v", err)
	}
	idn, _ := Parse([]string{"*.bücher.example"})
	if !idn.AllowsOrigin("https://shop.xn--bcher-kva.example") {
		t.Error("a Unicode domain entry does not cover its punycode subdomain")
	}
}

// TestDomainEntryRefusals: a bare domain that is not one a site lives under is refused with
// a reason, as a flag value and as a policy entry.
func TestDomainEntryRefusals(t *testing.T) {
	if e, err := DomainEntry("Example.com"); err != nil || e != "*.example.com" {
		t.Fatalf("DomainEntry(Example.com) = %q, %v", e, err)
	}
	for in, why := range map[string]string{
		"":                    "got nothing",
		"https://example.com": "is a URL",
		"example.com/path":    "has a path",
		"example.com:8080":    "has a port",
		"*.example.com":       "has a wildcard",
		"127.0.0.1":           "is an IP address",
		"::1":                 "is an IP address",
		"com":                 "is a public suffix",
		"co.uk":               "is a public suffix",
		"localhost":           "is a public suffix",
		"example..com":        "empty label",
		".example.com":        "empty label",
		"1.2.3":               "ends in a number",
		"user:pw@example.com": "credentials",
		"exa mple.com":        "not a valid domain",
	} {
		_, err := DomainEntry(in)
		if err == nil || !strings.Contains(err.Error(), why) {
			t.Errorf("DomainEntry(%q) = %v, want a refusal saying %q", in, err, why)
		}
		if in != "" && !strings.HasPrefix(in, "*.") {
			if _, err := Parse([]string{"*." + in}); err == nil {
				t.Errorf("Parse(*.%s) accepted", in)
			}
		}
	}
	if _, err := Parse([]string{"*.example.com", "*"}); err == nil {
		t.Error("a domain entry mixed with * was accepted")
	}
}

// TestNarrowDomains: narrowing keeps within the base: a domain entry under a covering
// domain, an exact origin under a domain; never a wider domain.
func TestNarrowDomains(t *testing.T) {
	base, _ := Parse([]string{"*.example.com"})
	n, err := base.Narrow([]string{"*.shop.example.com", "https://www.example.com"})
	if err != nil || !n.AllowsOrigin("https://a.shop.example.com") || !n.AllowsOrigin("https://www.example.com") || n.AllowsOrigin("https://example.com") {
		t.Fatalf("narrow within the domain: %v %v", n.Origins(), err)
	}
	var de *DeniedError
	for _, wider := range [][]string{{"*.other.test"}, {"https://other.test"}, {"*"}} {
		if _, err := base.Narrow(wider); !errors.As(err, &de) {
			t.Errorf("Narrow(%v) = %v, want DeniedError", wider, err)
		}
	}
	exact, _ := Parse([]string{"https://www.example.com"})
	if _, err := exact.Narrow([]string{"*.example.com"}); !errors.As(err, &de) {
		t.Errorf("an exact base narrowed to a domain: %v", err)
	}
	if n, err := AllowAll().Narrow([]string{"*.example.com"}); err != nil || !n.AllowsOrigin("http://a.example.com:81") {
		t.Errorf("* narrowed to a domain: %v", err)
	}
}
