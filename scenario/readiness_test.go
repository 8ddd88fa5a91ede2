package scenario

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"
)

// A server that answered 503 and then stopped answering is reported as having answered 503:
// the probe the deadline cut off does not erase the earlier answer.
func TestWaitReadyKeepsLastAnswer(t *testing.T) {
	var probes atomic.Int32
	release := make(chan struct{})
	defer close(release)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if probes.Add(1) == 1 {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		select { // later probes hang until the deadline cuts them off
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	last, err := waitReady(ctx, srv.URL, http.StatusOK, nil)
	if err == nil || last != http.StatusServiceUnavailable || probes.Load() < 2 {
		t.Fatalf("last %d, err %v after %d probes; want 503 and an error after at least 2 probes", last, err, probes.Load())
	}
}
