package runtimetest

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/fastbrowser/fastbrowser/scenarios/fixture"
)

// Fixture serves the embedded fixture site on a loopback port.
func Fixture() *httptest.Server { return httptest.NewServer(fixture.Handler()) }

// Canary is a second loopback origin that counts every request it receives: a test that
// expects a request to be refused asserts the count stays zero.
type Canary struct {
	*httptest.Server
	hits  atomic.Int64
	mu    sync.Mutex
	paths []string
}

// NewCanary starts a canary server.
func NewCanary() *Canary {
	c := &Canary{}
	c.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c.hits.Add(1)
		c.mu.Lock()
		c.paths = append(c.paths, r.URL.Path)
		c.mu.Unlock()
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte("<!doctype html><title>Canary</title><p>canary reached</p>"))
	}))
	return c
}

// Saw reports whether a request for path reached the canary.
func (c *Canary) Saw(path string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, p := range c.paths {
		if p == path {
			return true
		}
	}
	return false
}

// Hits is how many requests reached the canary.
func (c *Canary) Hits() int64 { return c.hits.Load() }

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
