package runtimetest

import (
	"context"
	"os"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime"
)

// Options is runtime.Options for OpenWith; WorkerPath, WorkerArgs and OwnWorker are filled in.
type Options = runtime.Options

// OpenWith starts a session with explicit options (CDPURL and policy included) and the built
// binary as worker, and closes it when the test ends.
func OpenWith(t testing.TB, opts Options) *runtime.Runtime {
	t.Helper()
	bin, err := Binary()
	if err != nil {
		t.Fatal(err)
	}
	opts.WorkerPath, opts.WorkerArgs, opts.OwnWorker = bin, []string{"worker"}, true
	if os.Getenv("FASTBROWSER_DEBUG") != "" {
		opts.Log = os.Stderr
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

// Open starts a session in the package's shared browser (its own worker and browser
// context) with the built binary as worker, and closes it when the test ends.
func Open(t testing.TB, origins ...string) *runtime.Runtime {
	t.Helper()
	b, err := Browser()
	if err != nil {
		t.Fatal(err)
	}
	return OpenWith(t, Options{CDPURL: b.WebSocketURL(), AllowedOrigins: origins})
}
