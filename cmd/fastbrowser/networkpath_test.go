package main

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/transport"
)

// TestNetworkEvidenceNamesTheMissingFile: a failing scenario on a page whose image is
// missing (404, its URL with a token in the query) has network evidence naming the image
// by method, origin, path, status and size; the console and report.html name the path; the
// query's token and the fragment are in no output and no file of the run.
func TestNetworkEvidenceNamesTheMissingFile(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	dir, out := t.TempDir(), filepath.Join(t.TempDir(), "out")
	f := writeScenario(t, dir, "broken.json", fmt.Sprintf(`{
  "version": 1, "id": "broken-image",
  "fixture": {"baseUrl": %q, "server": {"mode": "external", "readiness": {"url": %q}}},
  "operations": [
    {"op": "navigate", "request": {"url": "/broken-image"}},
    {"op": "assert", "request": {"kind": "titleContains", "value": "Dashboard", "wait": "none"}}
  ]}`, site.URL, site.URL+"/health"))
	res := runCLI(t, nil, "run", "--out", out, f)
	if res.code != 1 {
		t.Fatalf("exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	op := readReport(t, filepath.Join(out, "report.json")).Scenarios[0].Operations[1]
	var entries []transport.NetworkEntry
	for _, m := range op.Evidence {
		if m.Kind != transport.PartNetwork {
			continue
		}
		data, err := os.ReadFile(filepath.Join(out, "artifacts", m.Path))
		if err != nil {
			t.Fatal(err)
		}
		var s transport.NetworkSummary
		if err := json.Unmarshal(data, &s); err != nil {
			t.Fatal(err)
		}
		entries = s.Entries
	}
	var found *transport.NetworkEntry
	for i, e := range entries {
		if e.Path == "/img/missing-logo.png" {
			found = &entries[i]
		}
	}
	if found == nil || found.Method != "GET" || found.URL != site.URL || found.Status != 404 || found.Category != "http_error" || found.Size <= 0 {
		t.Fatalf("network evidence %+v, want GET %s /img/missing-logo.png 404 with a size", entries, site.URL)
	}
	if want := "network: GET " + site.URL + "/img/missing-logo.png 404 ("; !strings.Contains(res.stdout, want) {
		t.Errorf("console lacks %q:\n%s", want, res.stdout)
	}
	if page, _ := os.ReadFile(filepath.Join(out, "report.html")); !strings.Contains(string(page), site.URL+"/img/missing-logo.png") {
		t.Error("report.html does not name the missing file")
	}
	// Neither the query's token nor the fragment is kept anywhere.
	texts := map[string]string{"stdout": res.stdout, "stderr": res.stderr}
	_ = filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			b, _ := os.ReadFile(p)
			texts[p] = string(b)
		}
		return nil
	})
	for name, text := range texts {
		if strings.Contains(text, "q-tok3n") || strings.Contains(text, "missing-logo.png?") || strings.Contains(text, "#frag") {
			t.Errorf("%s keeps the query or fragment", name)
		}
	}
}

// TestNetworkEvidencePathIsScrubbed: a secret in a failed request's path (here a 404'd page
// named after a secret the scenario typed) is masked in the network evidence, and in no
// output or file of the run.
func TestNetworkEvidencePathIsScrubbed(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	const secret = "pathsecret4711"
	dir, out := t.TempDir(), filepath.Join(t.TempDir(), "out")
	f := writeScenario(t, dir, "secretpath.json", fmt.Sprintf(`{
  "version": 1, "id": "secret-path",
  "fixture": {"baseUrl": %q, "server": {"mode": "external", "readiness": {"url": %q}}},
  "operations": [
    {"op": "navigate", "request": {"url": "/echo"}},
    {"op": "act", "request": {"action": "type", "target": {"role": "textbox", "name": "Token"}, "text": {"env": "PATH_TOKEN"}}},
    {"op": "navigate", "request": {"url": "/files/%s.pdf"}},
    {"op": "assert", "request": {"kind": "titleContains", "value": "Dashboard", "wait": "none"}}
  ]}`, site.URL, site.URL+"/health", secret))
	res := runCLI(t, map[string]string{"PATH_TOKEN": secret}, "run", "--out", out, f)
	if res.code != 1 {
		t.Fatalf("exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	if !strings.Contains(res.stdout, "network: GET "+site.URL+"/files/[secret].pdf 404") {
		t.Errorf("console lacks the masked path:\n%s", res.stdout)
	}
	texts := map[string]string{"stdout": res.stdout, "stderr": res.stderr}
	_ = filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			b, _ := os.ReadFile(p)
			texts[p] = string(b)
		}
		return nil
	})
	for name, text := range texts {
		if strings.Contains(text, secret) {
			t.Errorf("%s holds the secret", name)
		}
	}
}
