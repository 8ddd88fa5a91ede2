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
	"strconv"
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
				Command string                     `json:"command"`
				Args    []string                   `json:"args"`
				Env     map[string]json.RawMessage `json:"env"`
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
			URL       string          `json:"url"`
			Kind      string          `json:"kind"`
			Value     string          `json:"value"`
			Wait      string          `json:"wait"`
			TimeoutMs int             `json:"timeoutMs"`
			Select    json.RawMessage `json:"select"`
			Tab       *tabRef         `json:"tab"`
			Opener    *tabRef         `json:"opener"`
			Action    string          `json:"action"`
			Target    struct {
				Role string `json:"role"`
				Name string `json:"name"`
			} `json:"target"`
			Text   json.RawMessage `json:"text"`
			Option string          `json:"option"`
		} `json:"request"`
	} `json:"operations"`
}

type tabRef struct {
	Source    string `json:"source"`
	Operation struct {
		ID string `json:"id"`
	} `json:"operation"`
	Result string `json:"result"`
	Index  int    `json:"index"`
}

var (
	idRE       = regexp.MustCompile(`^[A-Za-z0-9._-]{1,64}$`)
	titleRE    = regexp.MustCompile(`<title>([^<]*)</title>`)
	allowedOps = []string{"navigate", "reload", "read", "assert", "listTabs", "selectTab", "closeTab", "act", "waitPopup"}
	// quickstartIDs is the quick-start set README shows: login (and the orders table), a
	// form, a popup, besides the first three reads.
	quickstartIDs = []string{"quickstart-form", "quickstart-home", "quickstart-login", "quickstart-popup", "quickstart-read-visible"}
)

// TestQuickstart checks each file's shape and replays its navigations and assertions
// against the fixture's served HTML, so a renamed page or title breaks here, not in CI.
// What follows an act or concerns a popup depends on the browser; `fastbrowser run` checks
// it (cmd/fastbrowser TestQuickstart, ci/quickstart).
func TestQuickstart(t *testing.T) {
	files, err := fs.Glob(Quickstart, "quickstart/*.json")
	if err != nil || len(files) != len(quickstartIDs) {
		t.Fatalf("quickstart files = %v, %v; want %d", files, err, len(quickstartIDs))
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
			if !slices.Contains(quickstartIDs, f.ID) {
				t.Errorf("id %q is not one of the quick-start set %v", f.ID, quickstartIDs)
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
	var status int
	known := false // whether the selected tab still shows the last page fetched here
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
			status, body = fetch(t, srv, path)
			known = true
		case "act":
			// A password is typed from the environment, never written in the file.
			if strings.EqualFold(op.Request.Target.Name, "password") && !bytes.HasPrefix(op.Request.Text, []byte(`{"env"`)) {
				t.Errorf("operations[%d]: a password typed as a literal; use {\"env\": NAME}", i)
			}
			known = false // the act may have changed or left the page
		case "waitPopup":
			if ref := op.Request.Opener; ref == nil || seen[ref.Operation.ID] != "selectTab" {
				t.Errorf("operations[%d]: opener must reference an earlier selectTab: %+v", i, ref)
			}
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
			if known && op.Request.Tab == nil {
				checkAssert(t, i, base, path, status, body, op.Request.Kind, op.Request.Value)
			}
		}
		seen[op.ID] = op.Op
	}
}

func checkAssert(t *testing.T, i int, base *url.URL, path string, status int, body, kind, value string) {
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
	case "status":
		ok = value == strconv.Itoa(status)
	case "pageClass":
		// The page classes a plain fetch can tell; bot_check is not in the quick start.
		class := "normal"
		if status >= 400 {
			class = "http_error"
		} else if strings.Contains(body, `type="password"`) {
			class = "login"
		}
		ok = value == class
	case "textContains":
		// Script-inserted text is not in the source; the fixture lists it as visible.
		ok = strings.Contains(body, value) || slices.Contains(fixture.ReadVisibleText, value)
	}
	if !ok {
		t.Errorf("operations[%d]: assert %s %q would fail on %s", i, kind, value, path)
	}
}

func fetch(t *testing.T, srv *httptest.Server, path string) (int, string) {
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
	return resp.StatusCode, string(data)
}
