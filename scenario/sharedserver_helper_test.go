package scenario

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"sync"
	"time"
)

// testServerArg, as the test binary's first argument, makes it a small managed fixture
// server for the shared-server tests (serveTestServer) instead of running tests. Its second
// argument is the listen address, so a test finds its processes by command line.
const testServerArg = "shared-test-server"

// serveTestServer serves addr until killed:
//
//	/health   200
//	/         a page titled "home"
//	/meet     records ?who=, then answers a page titled "met" as soon as two different
//	          names have come, or "alone" after 8 s (under the navigation budget): two
//	          scenarios see "met" only when they ran at the same time
//	/hold     answers after 8 s or when the client goes; /holding counts those in flight
//	/die      ends the process without answering (a server that dies mid-run)
//
// Each start appends a line to $FB_TEST_SERVER_STARTS; it prints a line naming itself, for
// the output log.
func serveTestServer(addr string) {
	if f, err := os.OpenFile(os.Getenv("FB_TEST_SERVER_STARTS"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600); err == nil {
		fmt.Fprintf(f, "start %d\n", os.Getpid())
		f.Close()
	}
	fmt.Printf("shared test server on %s (tag %s)\n", addr, os.Getenv("FB_TEST_SERVER_TAG"))
	var mu sync.Mutex
	met := sync.NewCond(&mu)
	seen := map[string]bool{}
	holding := 0
	page := func(w http.ResponseWriter, title string) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, "<!doctype html><title>%s</title><p>%s</p>", title, title)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/health", func(w http.ResponseWriter, _ *http.Request) { fmt.Fprintln(w, "ok") })
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, _ *http.Request) { page(w, "home") })
	mux.HandleFunc("/meet", func(w http.ResponseWriter, r *http.Request) {
		deadline := time.AfterFunc(8*time.Second, met.Broadcast)
		defer deadline.Stop()
		end := time.Now().Add(8 * time.Second)
		mu.Lock()
		seen[r.URL.Query().Get("who")] = true
		met.Broadcast()
		for len(seen) < 2 && time.Now().Before(end) {
			met.Wait()
		}
		title := "alone"
		if len(seen) >= 2 {
			title = "met"
		}
		mu.Unlock()
		page(w, title)
	})
	mux.HandleFunc("/hold", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		holding++
		mu.Unlock()
		defer func() { mu.Lock(); holding--; mu.Unlock() }()
		ctx, cancel := context.WithTimeout(r.Context(), 8*time.Second)
		defer cancel()
		<-ctx.Done()
		page(w, "held")
	})
	mux.HandleFunc("/holding", func(w http.ResponseWriter, _ *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprint(w, holding)
	})
	mux.HandleFunc("/die", func(http.ResponseWriter, *http.Request) { os.Exit(3) })
	err := http.ListenAndServe(addr, mux)
	fmt.Fprintln(os.Stderr, err)
	os.Exit(1)
}
