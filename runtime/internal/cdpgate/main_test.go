package cdpgate_test

import (
	"os"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
)

func TestMain(m *testing.M) { os.Exit(runtimetest.Main(m, "cdpgate")) }
