package policy

import (
	"os/exec"
	"strings"
	"testing"
)

// browserFreeDeps are the only non-standard packages transport/policy may pull in, directly
// or through others: the budgets floor, textclip and the IDNA/public-suffix tables. A host
// that owns its own browser and egress wall links this package alone to parse, narrow and
// classify origins (docs/architecture.md); anything more (the runtime, the worker, a CDP
// client) would bring a browser driver with it.
var browserFreeDeps = []string{
	"github.com/fastbrowser/fastbrowser/budgets",
	"github.com/fastbrowser/fastbrowser/transport/textclip",
	"github.com/fastbrowser/fastbrowser/transport/policy",
	"golang.org/x/net/",
	"golang.org/x/text/",
}

// TestPolicyIsBrowserFree checks the package's whole import graph (not only its direct
// imports, which TestLayering in cmd/fastbrowser holds to the leaf rule).
func TestPolicyIsBrowserFree(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) == 0 {
		t.Fatal("go list -deps listed nothing: the check would pass vacuously")
	}
	for _, dep := range deps {
		if !allowedDep(dep) {
			t.Errorf("transport/policy pulls in %s: it must stay usable without the browser or runtime", dep)
		}
	}
}

func allowedDep(dep string) bool {
	for _, ok := range browserFreeDeps {
		if dep == ok || (strings.HasSuffix(ok, "/") && strings.HasPrefix(dep, ok)) {
			return true
		}
	}
	return false
}
