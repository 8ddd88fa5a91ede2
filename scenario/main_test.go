package scenario

import (
	"os"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
)

// Parse, schema, matcher and tab-reference tests need no browser; the others launch one
// on demand. Started with testServerArg, the binary is a managed fixture server instead.
func TestMain(m *testing.M) {
	if len(os.Args) == 3 && os.Args[1] == testServerArg {
		serveTestServer(os.Args[2])
	}
	os.Exit(runtimetest.MainBrowserOnDemand(m, "scenario"))
}
