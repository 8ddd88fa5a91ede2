package scenario

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// TestConfigProjects: projects are read with their settings; a project's baseUrl replaces
// the fixture's (relative URLs and the default origin follow it), its viewport fills a
// scenario that has none, and SelectProjects picks by name, all by default.
func TestConfigProjects(t *testing.T) {
	dir := writeFiles(t, t.TempDir(), map[string]string{
		ConfigName: `{"version": 1, "fixture": {"baseUrl": "http://127.0.0.1:4310"}, "viewport": {"width": 800, "height": 600},
		  "projects": [
		    {"name": "v1", "variables": {"P": "/one"}},
		    {"name": "v2", "baseUrl": "http://127.0.0.1:4311/app/", "variables": {"P": "two"}, "viewport": {"width": 1024, "height": 700}, "testIdAttribute": "data-qa"}
		  ]}`,
		"s.json": `{"version": 1, "id": "s", "operations": [{"op": "navigate", "request": {"url": {"var": "P"}}}]}`,
	})
	cfg, err := LoadConfig(filepath.Join(dir, ConfigName))
	if err != nil {
		t.Fatal(err)
	}
	all, err := SelectProjects(cfg, nil)
	if err != nil || len(all) != 2 || all[0].Name != "v1" || all[1].Name != "v2" {
		t.Fatalf("default selection %v %v", all, err)
	}
	want := map[string]struct {
		url, origin string
		width       int
		testID      string
	}{"v1": {"http://127.0.0.1:4310/one", "http://127.0.0.1:4310", 800, ""}, "v2": {"http://127.0.0.1:4311/app/two", "http://127.0.0.1:4311", 1024, "data-qa"}}
	for _, p := range all {
		l, err := LoadWith(filepath.Join(dir, "s.json"), Overrides{Config: cfg, Project: p})
		if err != nil {
			t.Fatalf("%s: %v", p.Name, err)
		}
		w := want[p.Name]
		if or := newOperationReport(0, &l.Operations[0]); or.Target != w.url {
			t.Errorf("%s: url %q, want %q", p.Name, or.Target, w.url)
		}
		if len(l.Origins) != 1 || l.Origins[0] != w.origin || l.Viewport.Width != w.width || l.TestIDAttribute != w.testID || l.Project != p.Name {
			t.Errorf("%s: origins %v viewport %v testId %q project %q", p.Name, l.Origins, l.Viewport, l.TestIDAttribute, l.Project)
		}
	}
	one, err := SelectProjects(cfg, []string{"v2", "v2"})
	if err != nil || len(one) != 1 || one[0].Name != "v2" {
		t.Errorf("--project v2 twice: %v %v", one, err)
	}
	if _, err := SelectProjects(cfg, []string{"v3"}); err == nil || !strings.Contains(err.Error(), "defines v1, v2") {
		t.Errorf("unknown project: %v", err)
	}
	if _, err := SelectProjects(nil, []string{"v1"}); err == nil || !strings.Contains(err.Error(), "no projects") {
		t.Errorf("no config: %v", err)
	}
	if none, err := SelectProjects(nil, nil); err != nil || len(none) != 1 || none[0] != nil {
		t.Errorf("no projects: %v %v (want one run without a project)", none, err)
	}
}

// TestConfigProjectRefusals: each project field is checked as strictly as the config's own,
// with its path.
func TestConfigProjectRefusals(t *testing.T) {
	cases := []struct{ name, projects, path, msg string }{
		{"no name", `[{}]`, "projects[0]", `missing required field "name"`},
		{"bad name", `[{"name": "a b"}]`, "projects[0].name", "expected 1–24 characters"},
		{"long name", `[{"name": "` + strings.Repeat("x", 25) + `"}]`, "projects[0].name", "expected 1–24 characters"},
		{"duplicate", `[{"name": "a"}, {"name": "a"}]`, "projects[1].name", `project "a" is already defined`},
		{"bad baseUrl", `[{"name": "a", "baseUrl": "ftp://x"}]`, "projects[0].baseUrl", "absolute http or https URL"},
		{"bad variable", `[{"name": "a", "variables": {"a-b": "x"}}]`, "projects[0].variables", "expected a variable name"},
		{"variable not a string", `[{"name": "a", "variables": {"A": 1}}]`, "projects[0].variables.A", "string"},
		{"bad viewport", `[{"name": "a", "viewport": {"width": 1, "height": 1}}]`, "projects[0].viewport", "expected a width"},
		{"bad testIdAttribute", `[{"name": "a", "testIdAttribute": "x y"}]`, "projects[0].testIdAttribute", "attribute name"},
		{"empty origins", `[{"name": "a", "allowedOrigins": []}]`, "projects[0].allowedOrigins", "at least one origin"},
		{"unknown field", `[{"name": "a", "hooks": {}}]`, "projects[0].hooks", "unknown field"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := filepath.Join(writeFiles(t, t.TempDir(), map[string]string{ConfigName: `{"version": 1, "projects": ` + c.projects + `}`}), ConfigName)
			_, err := LoadConfig(p)
			var ve *ValidationError
			if !errors.As(err, &ve) || ve.Path != c.path || !strings.Contains(ve.Message, c.msg) {
				t.Fatalf("got %v, want %s: …%s…", err, c.path, c.msg)
			}
		})
	}
}
