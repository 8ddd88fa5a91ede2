package runtime_test

import (
	"crypto/x509"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime"
	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/transport"
)

// tlsTrust is a TLSTrust of the fixture's CA (when withCA) and its client certificate for
// clientOrigin (when not "").
func tlsTrust(t *testing.T, f *runtimetest.TLSFixture, withCA bool, clientOrigin string) *runtime.TLSTrust {
	t.Helper()
	var clients []runtime.ClientCertificate
	if clientOrigin != "" {
		c, err := runtime.ReadClientCertificate(f.ClientCert, f.ClientKey)
		if err != nil {
			t.Fatal(err)
		}
		clients = append(clients, runtime.ClientCertificate{Origin: clientOrigin, Certificate: c})
	}
	var cas []*x509.Certificate
	if withCA {
		var err error
		if cas, err = runtime.ReadTrustedCAs(f.CAFile); err != nil {
			t.Fatal(err)
		}
	}
	trust, err := runtime.NewTLSTrust(cas, clients)
	if err != nil {
		t.Fatal(err)
	}
	return trust
}

// expectTLSFailed checks that navigating to url failed tls_failed, naming the origin and
// saying why (because).
func expectTLSFailed(t *testing.T, rt *runtime.Runtime, url, because string) {
	t.Helper()
	_, err := transport.Dispatch(bg, rt, transport.Navigate{URL: url})
	if err == nil {
		t.Fatalf("navigate %s: passed", url)
	}
	oe := transport.AsOperationError("", err)
	if oe.Code != transport.CodeTLSFailed || !strings.Contains(oe.Message, url) || !strings.Contains(oe.Message, because) {
		t.Fatalf("navigate %s: %s %q, want tls_failed naming it and %q", url, oe.Code, oe.Message, because)
	}
}

// TestTLSWithoutTrustedCA: a site whose CA no one gave fastbrowser fails tls_failed, both
// where the browser checks the certificate itself (no TLS trust: a plain tunnel) and where
// the egress proxy does (TLS trust of a client certificate alone).
func TestTLSWithoutTrustedCA(t *testing.T) {
	t.Parallel()
	f := runtimetest.NewTLSFixture(t)
	plain := runtimetest.Open(t, f.Site.URL)
	expectTLSFailed(t, plain, f.Site.URL, "net::ERR_CERT_AUTHORITY_INVALID")

	rt := runtimetest.OpenWith(t, runtime.Options{AllowedOrigins: []string{f.Site.URL, f.MTLS.URL}, TLS: tlsTrust(t, f, false, f.MTLS.URL)})
	expectTLSFailed(t, rt, f.Site.URL, "unknown authority")
	expectTLSFailed(t, rt, f.MTLS.URL, "unknown authority")
	if rt.TLSVerified(f.Site.URL + "/") {
		t.Fatal("tlsVerified for a host whose certificate failed")
	}
}

// TestTLSTrustedCAAndClientCertificate: with the CA trusted, the site loads and is reported
// verified; the mTLS site admits the browser at the origin its client certificate is
// configured for and refuses it, saying so, at another.
func TestTLSTrustedCAAndClientCertificate(t *testing.T) {
	t.Parallel()
	f := runtimetest.NewTLSFixture(t)
	rt := runtimetest.OpenWith(t, runtime.Options{AllowedOrigins: []string{f.Site.URL, f.MTLS.URL, f.OtherMTLS.URL}, TLS: tlsTrust(t, f, true, f.MTLS.URL)})

	nav, err := transport.Dispatch(bg, rt, transport.Navigate{URL: f.Site.URL + "/page"})
	if err != nil {
		t.Fatalf("navigate to the site of a trusted CA: %v", err)
	}
	if nav.Title != runtimetest.TLSPageTitle || !nav.TLSVerified {
		t.Fatalf("navigate: title %q, tlsVerified %v; want %q, true", nav.Title, nav.TLSVerified, runtimetest.TLSPageTitle)
	}

	nav, err = transport.Dispatch(bg, rt, transport.Navigate{URL: f.MTLS.URL + "/"})
	if err != nil {
		t.Fatalf("navigate to the mTLS site with its client certificate: %v", err)
	}
	if nav.Title != runtimetest.TLSPageTitle || !nav.TLSVerified {
		t.Fatalf("mTLS navigate: title %q, tlsVerified %v", nav.Title, nav.TLSVerified)
	}

	expectTLSFailed(t, rt, f.OtherMTLS.URL, "client certificate required")
	// The failure was the navigation's error, so it is not repeated as a warning.
	if w := rt.TLSWarnings(); len(w) != 0 {
		t.Fatalf("warnings after a failure its operation reported: %q", w)
	}
}
