package runtimetest

import (
	"context"
	"os"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime"
)

// Open starts a session in the package's shared browser (its own worker and browser
// context) with the built binary as worker, and closes it when the test ends.
func Open(t testing.TB, origins ...string) *runtime.Runtime {
	t.Helper()
	b, err := Browser()
	if err != nil {
		t.Fatal(err)
	}
	bin, err := Binary()
	if err != nil {
		t.Fatal(err)
	}
	opts := runtime.Options{CDPURL: b.WebSocketURL(), WorkerPath: bin, WorkerArgs: []string{"worker"}, AllowedOrigins: origins}
	if os.Getenv("FASTBROWSER_DEBUG") != "" {
		opts.Log = os.Stderr // the worker's log, for debugging a failing test
	}
	rt, err := runtime.Open(context.Background(), opts)
	if err != nil {
		t.Fatalf("runtime.Open: %v", err)
	}
	t.Cleanup(func() {
		if err := rt.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return rt
}
