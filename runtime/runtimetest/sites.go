package runtimetest

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/fastbrowser/fastbrowser/scenarios/fixture"
)

// Fixture serves the embedded fixture site on a loopback port.
func Fixture() *httptest.Server { return httptest.NewServer(fixture.Handler()) }

// Canary is a second loopback origin that counts every request and connection it
// receives (fixture.Canary, served): a test that expects a request to be refused asserts
// the count stays zero. The caller closes it.
type Canary struct {
	*fixture.Canary
	*httptest.Server
}

// NewCanary starts a canary server.
func NewCanary() *Canary {
	c, srv := fixture.NewCanaryServer()
	return &Canary{c, srv}
}

// Clicks reads the fixture's server-side click counters (GET /clicks): how many clicks each
// fixture page reported, so a test can prove how many inputs reached the page.
func Clicks(t testing.TB, base string) map[string]int {
	t.Helper()
	resp, err := http.Get(base + "/clicks")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	m := map[string]int{}
	if err := json.NewDecoder(resp.Body).Decode(&m); err != nil {
		t.Fatalf("/clicks: %v", err)
	}
	return m
}
