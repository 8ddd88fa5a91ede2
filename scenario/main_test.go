package scenario

import (
	"os"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
)

// Parse, schema, matcher and tab-reference tests need no browser; the others launch one
// on demand.
func TestMain(m *testing.M) { os.Exit(runtimetest.MainBrowserOnDemand(m, "scenario")) }
