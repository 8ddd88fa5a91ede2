package scenario

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/transport"
)

// TestFindConfig: fastbrowser.json is found in the directory or a parent, and the walk
// stops at the directory holding .git (a config above the repository is not used).
func TestFindConfig(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"fastbrowser.json":                  `{"version":1}`, // above the repository: never found
		"repo/.git/HEAD":                    "ref: refs/heads/main\n",
		"repo/suite/deep/s.json":            "{}",
		"repo/other/fastbrowser.json":       `{"version":1}`,
		"repo/other/sub/s.json":             "{}",
		"repo/other/sub/fastbrowser.json/x": "a directory named like the config is not one",
	})
	if got := FindConfig(filepath.Join(root, "repo", "suite", "deep")); got != "" {
		t.Errorf("found %q past the repository root", got)
	}
	if got, want := FindConfig(filepath.Join(root, "repo", "other", "sub")), filepath.Join(root, "repo", "other", ConfigName); got != want {
		t.Errorf("found %q, want %q", got, want)
	}
	writeFiles(t, root, map[string]string{"repo/fastbrowser.json": `{"version":1}`})
	if got, want := FindConfig(filepath.Join(root, "repo", "suite", "deep")), filepath.Join(root, "repo", ConfigName); got != want {
		t.Errorf("found %q, want %q (the repository root's)", got, want)
	}
}

// TestConfigRefusals: a config is decoded as strictly as a scenario file, and each refusal
// names the config file and the field.
func TestConfigRefusals(t *testing.T) {
	cases := []struct{ name, body, path, msg string }{
		{"unknown field", `{"version":1,"hooks":{}}`, "hooks", "unknown field"},
		{"no version", `{}`, "", `missing required field "version"`},
		{"version 2", `{"version":2}`, "version", "unsupported version 2"},
		{"retries over", `{"version":1,"retries":6}`, "retries", "expected 0 to 5"},
		{"jobs 0", `{"version":1,"jobs":0}`, "jobs", "expected 1 to 64"},
		{"bad base URL", `{"version":1,"fixture":{"baseUrl":"ftp://x"}}`, "fixture.baseUrl", "absolute http or https URL"},
		{"empty origins", `{"version":1,"allowedOrigins":[]}`, "allowedOrigins", "at least one origin"},
		{"budget over ceiling", `{"version":1,"budgets":{"timeoutMs":999999}}`, "budgets.timeoutMs", "ceiling"},
		{"egress empty", `{"version":1,"egress":{"subresources":""}}`, "egress.subresources", ""},
		{"viewport small", `{"version":1,"viewport":{"width":1,"height":600}}`, "viewport", "expected a width and a height"},
		{"testIdAttribute with a space", `{"version":1,"testIdAttribute":"data test"}`, "testIdAttribute", "attribute name"},
		{"duplicate key", `{"version":1,"jobs":1,"jobs":2}`, "", `duplicate key "jobs"`},
		{"session unknown field", `{"version":1,"session":{"idleTimeout":5}}`, "session.idleTimeout", "unknown field"},
		{"session pageText unknown field", `{"version":1,"session":{"pageText":{"nodes":5}}}`, "session.pageText.nodes", "unknown field"},
		{"session idle over ceiling", `{"version":1,"session":{"idleTimeoutS":90000}}`, "session.idleTimeoutS", "expected 0 to 86400 seconds"},
		{"session idle over its own ceiling", `{"version":1,"session":{"idleTimeoutS":120,"ceilings":{"idleTimeoutS":60}}}`, "session.idleTimeoutS", "expected 0 to 60 seconds"},
		{"session request over ceiling", `{"version":1,"session":{"requestTimeoutMs":999999}}`, "session.requestTimeoutMs", "expected 0 to 120000"},
		{"session pageText over budget", `{"version":1,"session":{"pageText":{"maxNodes":6000}}}`, "session.pageText.maxNodes", "expected 0 to 5000"},
		{"session pageText over its ceiling", `{"version":1,"session":{"pageText":{"maxDepth":10},"ceilings":{"pageText":{"maxDepth":4}}}}`, "session.pageText.maxDepth", "expected 0 to 4"},
		{"session ceiling over budget", `{"version":1,"session":{"ceilings":{"pageText":{"maxTextChars":100001}}}}`, "session.ceilings.pageText.maxTextChars", "expected 0 to 100000"},
		{"session binding empty", `{"version":1,"session":{"bindingOrigins":[]}}`, "session.bindingOrigins", "expected [\"*\"] or exact"},
		{"session binding bad origin", `{"version":1,"session":{"bindingOrigins":["http://x/path"]}}`, "session.bindingOrigins", "exact http(s) origins"},
		{"session empty handoff class", `{"version":1,"session":{"handoffClasses":["login",""]}}`, "session.handoffClasses[1]", "page class"},
		{"session wrong type", `{"version":1,"session":{"idleTimeoutS":"60"}}`, "session.idleTimeoutS", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := filepath.Join(writeFiles(t, t.TempDir(), map[string]string{ConfigName: c.body}), ConfigName)
			_, err := LoadConfig(p)
			var ve *ValidationError
			if !errors.As(err, &ve) || ve.File != p || ve.Path != c.path || !strings.Contains(ve.Message, c.msg) {
				t.Fatalf("got %v, want %s: %s: …%s…", err, p, c.path, c.msg)
			}
		})
	}
}

// TestConfigDefaults: the config fills only the fields a scenario leaves out; a managed
// server's cwd is the config's directory; --base-url still overrides the config's fixture.
func TestConfigDefaults(t *testing.T) {
	dir := writeFiles(t, t.TempDir(), map[string]string{
		ConfigName: `{"version":1,
			"fixture":{"baseUrl":"http://127.0.0.1:4310","server":{"mode":"managed","start":{"command":"./serve","cwd":"bin"},"readiness":{"url":"http://127.0.0.1:4310/health"}}},
			"allowedOrigins":["http://127.0.0.1:4310","http://cdn.test"],"budgets":{"timeoutMs":5000},
			"egress":{"subresources":"report"},"viewport":{"width":1024,"height":700},"testIdAttribute":"data-test","retries":2,"jobs":3}`,
		"suite/bare.json": `{"version":1,"id":"bare","operations":[{"op":"navigate","request":{"url":"/form"}}]}`,
		"suite/own.json": `{"version":1,"id":"own","fixture":{"baseUrl":"http://127.0.0.1:9999"},"budgets":{"timeoutMs":7000},
			"operations":[{"op":"navigate","request":{"url":"/form"}}]}`,
	})
	cfg, err := LoadConfig(filepath.Join(dir, ConfigName))
	if err != nil {
		t.Fatal(err)
	}
	if *cfg.Retries != 2 || *cfg.Jobs != 3 {
		t.Errorf("retries/jobs %d/%d", *cfg.Retries, *cfg.Jobs)
	}
	if got := cfg.Fixture.Server.Start.Cwd; got != filepath.Join(dir, "bin") {
		t.Errorf("server cwd %q, want the config's dir/bin", got)
	}
	bare, err := LoadWith(filepath.Join(dir, "suite", "bare.json"), Overrides{Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	if nav := bare.Operations[0].req.bind("").(*transport.Navigate); nav.URL != "http://127.0.0.1:4310/form" {
		t.Errorf("relative URL against the config's fixture: %q", nav.URL)
	}
	if bare.Budgets.TimeoutMs != 5000 || bare.Egress.Subresources != "report" || bare.Viewport.Width != 1024 || len(bare.Origins) != 2 {
		t.Errorf("defaults not filled: budgets %+v egress %+v viewport %+v origins %v", bare.Budgets, bare.Egress, bare.Viewport, bare.Origins)
	}
	if spec := bare.sessionSpec(); spec.TestIDAttribute != "data-test" {
		t.Errorf("the config's testIdAttribute did not reach the session: %q", spec.TestIDAttribute)
	}
	own, err := LoadWith(filepath.Join(dir, "suite", "own.json"), Overrides{Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	if own.Fixture.BaseURL != "http://127.0.0.1:9999" || own.Fixture.Server != nil || own.Budgets.TimeoutMs != 7000 {
		t.Errorf("the scenario's own fields must win: fixture %+v budgets %+v", own.Fixture, own.Budgets)
	}
	over, err := LoadWith(filepath.Join(dir, "suite", "bare.json"), Overrides{Config: cfg, BaseURL: "http://127.0.0.1:5555"})
	if err != nil {
		t.Fatal(err)
	}
	if over.Fixture.BaseURL != "http://127.0.0.1:5555" || over.Fixture.Server.Mode != ModeExternal || over.Origins[0] != "http://127.0.0.1:5555" {
		t.Errorf("--base-url must win over the config: %+v %v", over.Fixture, over.Origins)
	}
	// The override rewrote the origins of this scenario only, not the config's.
	if cfg.AllowedOrigins[0] != "http://127.0.0.1:4310" {
		t.Errorf("config origins changed: %v", cfg.AllowedOrigins)
	}
}

// A secret of a managed server the run config supplied is refused naming the config it is
// written in, not only the scenario file (which has no fixture to look at).
func TestConfigServerSecretNamedAtTheConfig(t *testing.T) {
	dir := writeFiles(t, t.TempDir(), map[string]string{
		ConfigName: `{"version":1,
			"fixture":{"baseUrl":"http://127.0.0.1:4310","server":{"mode":"managed","start":{"command":"./serve","env":{"TOKEN":{"env":"FB_TEST_UNSET_TOKEN"}}},"readiness":{"url":"http://127.0.0.1:4310/health"}}}}`,
		"bare.json": `{"version":1,"id":"bare","operations":[{"op":"navigate","request":{"url":"/form"}}]}`,
	})
	cfg, err := LoadConfig(filepath.Join(dir, ConfigName))
	if err != nil {
		t.Fatal(err)
	}
	l, err := LoadWith(filepath.Join(dir, "bare.json"), Overrides{Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	err = CheckSecrets(l, func(string) (string, bool) { return "", false })
	want := "(run config " + filepath.Join(dir, ConfigName) + ") fixture.server.start.env.TOKEN"
	if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "FB_TEST_UNSET_TOKEN") {
		t.Fatalf("got %v, want it to name %q and the variable", err, want)
	}
}

// TestConfigSessionBlock: a valid session block is kept as written (serve and conformance
// read it through runtime/registry); the budget codes of refusals over a ceiling are
// budget_exceeded.
func TestConfigSessionBlock(t *testing.T) {
	p := filepath.Join(writeFiles(t, t.TempDir(), map[string]string{ConfigName: `{"version":1,"session":{
		"bindingOrigins":["http://127.0.0.1:4310","*.example.com"],"idleTimeoutS":60,"requestTimeoutMs":30000,
		"pageText":{"maxNodes":50,"maxDepth":6,"maxTextChars":2000},"handoffClasses":["login","captcha"],
		"ceilings":{"idleTimeoutS":600,"pageText":{"maxNodes":200}}}}`}), ConfigName)
	cfg, err := LoadConfig(p)
	if err != nil {
		t.Fatal(err)
	}
	s := cfg.Session
	if s == nil || len(s.BindingOrigins) != 2 || s.IdleTimeoutS != 60 || s.RequestTimeoutMs != 30000 || s.PageText.MaxNodes != 50 ||
		len(s.HandoffClasses) != 2 || s.Ceilings.IdleTimeoutS != 600 || s.Ceilings.PageText.MaxNodes != 200 {
		t.Fatalf("session block %+v", s)
	}
	p = filepath.Join(writeFiles(t, t.TempDir(), map[string]string{ConfigName: `{"version":1,"session":{"pageText":{"maxNodes":300},"ceilings":{"pageText":{"maxNodes":200}}}}`}), ConfigName)
	var ve *ValidationError
	if _, err := LoadConfig(p); !errors.As(err, &ve) || ve.Code != transport.CodeBudgetExceeded || ve.Path != "session.pageText.maxNodes" {
		t.Fatalf("a default over its own ceiling: got %v", err)
	}
}
