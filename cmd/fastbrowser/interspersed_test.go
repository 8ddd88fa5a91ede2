package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/urfave/cli/v2"

	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
)

func TestInterspersedMovesFlagsBeforeArguments(t *testing.T) {
	cmds := []*cli.Command{{Name: "run", Flags: []cli.Flag{&cli.StringFlag{Name: "out"}, &cli.IntFlag{Name: "jobs"}, &cli.BoolFlag{Name: "json"}}},
		{Name: "fixture", Subcommands: []*cli.Command{{Name: "serve"}}}}
	for _, c := range []struct{ in, want []string }{
		{[]string{"fb", "run", "a.json", "--jobs", "2", "b.json"}, []string{"fb", "run", "--jobs", "2", "a.json", "b.json"}},
		{[]string{"fb", "run", "a.json", "--json", "b.json"}, []string{"fb", "run", "--json", "a.json", "b.json"}},
		{[]string{"fb", "run", "a.json", "--out=x", "--bogus"}, []string{"fb", "run", "--out=x", "--bogus", "a.json"}},
		{[]string{"fb", "run", "--out", "x", "a.json"}, []string{"fb", "run", "--out", "x", "a.json"}},
		{[]string{"fb", "run", "a.json", "--", "--json"}, []string{"fb", "run", "a.json", "--", "--json"}},
		{[]string{"fb", "fixture", "serve", "--addr", "x"}, []string{"fb", "fixture", "serve", "--addr", "x"}},
	} {
		if got := interspersed(cmds, c.in); !slices.Equal(got, c.want) {
			t.Errorf("interspersed(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestRunFlagsAfterFiles: `run FILE --out DIR --jobs 1` writes its report to DIR, as a
// Playwright user would type it; on the base the flags were taken as two more files.
func TestRunFlagsAfterFiles(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	dir := t.TempDir()
	f := writeScenario(t, dir, "late.json", fmt.Sprintf(`{
  "version": 1, "id": "late",
  "fixture": {"baseUrl": %q, "server": {"mode": "external", "readiness": {"url": %q}}},
  "operations": [{"op": "navigate", "request": {"url": "/"}}]}`, site.URL, site.URL+"/health"))
	out := filepath.Join(dir, "elsewhere")
	res := runCLI(t, nil, "run", f, "--out", out, "--jobs", "1")
	if res.code != 0 {
		t.Fatalf("exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	if _, err := os.Stat(filepath.Join(out, "report.json")); err != nil {
		t.Fatalf("no report in --out: %v", err)
	}
}
