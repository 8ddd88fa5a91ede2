package scenario

import (
	"context"
	"net"
	"testing"

	"github.com/fastbrowser/fastbrowser/transport"
)

// TestBudgetEndsNameTheBudget: a hook that outlives its budget, a readiness URL that never
// answers within its budget, and a scenario budget that ends during a hook each say which
// budget ended and its value.
func TestBudgetEndsNameTheBudget(t *testing.T) {
	t.Parallel()
	// A port nothing listens on: readiness never gets an answer.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "http://" + ln.Addr().String()
	ln.Close()
	sleep := func(ms int) map[string]any {
		return map[string]any{"command": "/bin/sh", "args": []string{"-c", "sleep 10"}, "timeoutMs": ms}
	}
	read := []any{map[string]any{"op": "read"}}
	for _, c := range []struct {
		name string
		doc  map[string]any
		code transport.Code
		want string
	}{
		{"hook budget", map[string]any{"version": 1, "id": "hook", "hooks": map[string]any{"setup": sleep(300)}, "operations": read},
			transport.CodeHookFailed, "setup hook did not finish within the hook budget (300ms)"},
		{"readiness budget", map[string]any{"version": 1, "id": "ready",
			"fixture":    map[string]any{"baseUrl": dead, "server": map[string]any{"mode": "external", "readiness": map[string]any{"url": dead + "/health", "timeoutMs": 300}}},
			"operations": read},
			transport.CodeFixtureNotReady, dead + "/health did not answer within the readiness budget (300ms)"},
		{"scenario budget", map[string]any{"version": 1, "id": "budget", "budgets": map[string]any{"timeoutMs": 1000},
			"hooks": map[string]any{"setup": sleep(5000)}, "operations": read},
			transport.CodeTimeout, "the scenario budget (timeoutMs 1000) ended during the setup hook"},
	} {
		t.Run(c.name, func(t *testing.T) {
			opened := 0
			rep := Run(context.Background(), load(t, c.doc), countingEnv(t, &opened))
			if rep.Status != StatusError || rep.Error == nil || rep.Error.Code != c.code || rep.Error.Message != c.want || opened != 0 {
				t.Fatalf("status %s, error %+v, opened %d; want error %s %q", rep.Status, rep.Error, opened, c.code, c.want)
			}
		})
	}
}
