package scenarios

import (
	"bytes"
	"encoding/json"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/scenarios/fixture"
)

// quickstartFile is the subset of scenario file v1 the quick-start files may use; decoding
// with unknown fields disallowed catches a typo the real validator might not exist for yet.
type quickstartFile struct {
	Version     int    `json:"version"`
	ID          string `json:"id"`
	Description string `json:"description"`
	Fixture     struct {
		BaseURL string `json:"baseUrl"`
		Server  struct {
			Mode  string `json:"mode"`
			Start struct {
				Command string   `json:"command"`
				Args    []string `json:"args"`
			} `json:"start"`
			Readiness struct {
				URL            string `json:"url"`
				ExpectedStatus int    `json:"expectedStatus"`
			} `json:"readiness"`
		} `json:"server"`
	} `json:"fixture"`
	Operations []struct {
		ID      string `json:"id"`
		Op      string `json:"op"`
		Request struct {
			URL    string          `json:"url"`
			Kind   string          `json:"kind"`
			Value  string          `json:"value"`
			Wait   string          `json:"wait"`
			Select json.RawMessage `json:"select"`
			Tab    *struct {
				Source    string `json:"source"`
				Operation struct {
					ID string `json:"id"`
				} `json:"operation"`
				Result string `json:"result"`
				Index  int    `json:"index"`
			} `json:"tab"`
		} `json:"request"`
	} `json:"operations"`
}

var (
	idRE       = regexp.MustCompile(`^[A-Za-z0-9._-]{1,64}$`)
	titleRE    = regexp.MustCompile(`<title>([^<]*)</title>`)
	allowedOps = []string{"navigate", "reload", "read", "assert", "listTabs", "selectTab", "closeTab"}
)

// TestQuickstart checks each file's shape and replays its navigations and assertions
// against the fixture's served HTML, so a renamed page or title breaks here, not in CI.
func TestQuickstart(t *testing.T) {
	files, err := fs.Glob(Quickstart, "quickstart/*.json")
	if err != nil || len(files) != 3 {
		t.Fatalf("quickstart files = %v, %v; want 3", files, err)
	}
	srv := httptest.NewServer(fixture.Handler())
	defer srv.Close()
	for _, name := range files {
		t.Run(name, func(t *testing.T) {
			data, err := Quickstart.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			dec := json.NewDecoder(bytes.NewReader(data))
			dec.DisallowUnknownFields()
			var f quickstartFile
			if err := dec.Decode(&f); err != nil {
				t.Fatalf("decode: %v", err)
			}
			checkQuickstart(t, srv, &f)
		})
	}
}

func checkQuickstart(t *testing.T, srv *httptest.Server, f *quickstartFile) {
	if f.Version != 1 || !idRE.MatchString(f.ID) {
		t.Errorf("version %d id %q", f.Version, f.ID)
	}
	base, err := url.Parse(f.Fixture.BaseURL)
	if err != nil || f.Fixture.Server.Mode != "managed" ||
		f.Fixture.Server.Readiness.URL != f.Fixture.BaseURL+"/health" {
		t.Fatalf("fixture block: %+v", f.Fixture)
	}
	seen := map[string]string{} // operation id → op
	var path, body string
	for i, op := range f.Operations {
		if !idRE.MatchString(op.ID) || seen[op.ID] != "" {
			t.Errorf("operations[%d]: id %q missing, invalid or duplicate", i, op.ID)
		}
		if !slices.Contains(allowedOps, op.Op) {
			t.Errorf("operations[%d]: op %q is not implemented yet", i, op.Op)
		}
		switch op.Op {
		case "navigate":
			path = op.Request.URL
			body = fetch(t, srv, path)
		case "reload", "read", "listTabs":
			if path == "" {
				t.Errorf("operations[%d]: %s before any navigate", i, op.Op)
			}
		case "selectTab", "closeTab":
			ref := op.Request.Tab
			if ref == nil || ref.Source != "operation" || seen[ref.Operation.ID] != "listTabs" || ref.Result != "listedTab" {
				t.Errorf("operations[%d]: tab must reference an earlier listTabs result: %+v", i, ref)
			}
		case "assert":
			checkAssert(t, i, base, path, body, op.Request.Kind, op.Request.Value)
		}
		seen[op.ID] = op.Op
	}
}

func checkAssert(t *testing.T, i int, base *url.URL, path, body, kind, value string) {
	title := ""
	if m := titleRE.FindStringSubmatch(body); m != nil {
		title = m[1]
	}
	var ok bool
	switch kind {
	case "title":
		ok = title == value
	case "titleContains":
		ok = strings.Contains(title, value)
	case "url":
		ok = value == base.ResolveReference(&url.URL{Path: path}).String()
	case "origin":
		ok = value == base.Scheme+"://"+base.Host
	case "textContains":
		// Script-inserted text is not in the source; the fixture lists it as visible.
		ok = strings.Contains(body, value) || slices.Contains(fixture.ReadVisibleText, value)
	}
	if !ok {
		t.Errorf("operations[%d]: assert %s %q would fail on %s", i, kind, value, path)
	}
}

func fetch(t *testing.T, srv *httptest.Server, path string) string {
	t.Helper()
	resp, err := http.Get(srv.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Errorf("GET %s = %d, want 200", path, resp.StatusCode)
	}
	return string(data)
}
