package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// sizePage answers a page whose title is the size it is laid out at (innerWidth x innerHeight).
func sizePage(t *testing.T) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!doctype html><title>unset</title><p>size</p><script>document.title = innerWidth + "x" + innerHeight</script>`)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestMCPViewport: an MCP session lays pages out at Playwright's (and Playwright MCP's)
// default 1280x720 unless --viewport says otherwise, and the exported file holds that size so
// `run` replays at it; a malformed --viewport is a usage error with nothing on stdout.
func TestMCPViewport(t *testing.T) {
	site := sizePage(t)
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "1280x720"},
		{[]string{"--viewport", "900x700"}, "900x700"},
	} {
		t.Run(c.want, func(t *testing.T) {
			m := startMCP(t, append([]string{"--binding-origin", site}, c.args...)...)
			session := m.ok("browser_open", map[string]any{"allowedOrigins": []string{site}})["session"].(string)
			if title := enveloped(t, m.ok("browser_navigate", map[string]any{"session": session, "url": site + "/"}))["title"]; title != c.want {
				t.Errorf("laid out at %v, want %s", title, c.want)
			}
			file, out, isErr := m.export(map[string]any{"session": session})
			w, h, _ := strings.Cut(c.want, "x")
			if isErr || !strings.Contains(compactJSON(json.RawMessage(file)), fmt.Sprintf(`"viewport":{"height":%s,"width":%s}`, h, w)) {
				t.Errorf("the export does not hold the viewport %s: %v\n%s", c.want, out, file)
			}
		})
	}
	r := runCLI(t, nil, "mcp", "--binding-origin", site, "--viewport", "wide")
	if r.code != exitInvalid || !strings.Contains(r.stderr, "--viewport") || r.stdout != "" {
		t.Fatalf("mcp --viewport wide: exit %d\nstdout %q\nstderr %q", r.code, r.stdout, r.stderr)
	}
}
