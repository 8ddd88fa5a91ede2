package main

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
)

// TestRunViewport: a scenario's viewport reaches its pages through run's shared browser.
func TestRunViewport(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	dir := t.TempDir()
	f := writeScenario(t, dir, "viewport.json", fmt.Sprintf(`{
  "version": 1, "id": "viewport",
  "fixture": {"baseUrl": %q, "server": {"mode": "external", "readiness": {"url": %q}}},
  "viewport": {"width": 1280, "height": 720},
  "operations": [
    {"op": "navigate", "request": {"url": "/viewport"}},
    {"op": "assert", "request": {"kind": "textContains", "value": "size: 1280x720"}}
  ]}`, site.URL, site.URL+"/health"))
	res := runCLI(t, nil, "run", "--out", filepath.Join(dir, "out"), f)
	if res.code != 0 {
		t.Fatalf("exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
}
