package modeltest

import (
	"net/http"
	"sync"
)

// Hold is a step's request held in flight: Arrived is closed when the request reached the
// server, and the answer is written only after Release. A client that cancels the request
// first gets no answer, and Abandoned is closed.
type Hold struct {
	arrived, release, abandoned chan struct{}
	arriveOnce, releaseOnce     sync.Once
}

// NewHold returns a hold for one Step.
func NewHold() *Hold {
	return &Hold{arrived: make(chan struct{}), release: make(chan struct{}), abandoned: make(chan struct{})}
}

// Arrived is closed once the held request reached the server.
func (h *Hold) Arrived() <-chan struct{} { return h.arrived }

// Abandoned is closed when the client cancelled the held request before its release.
func (h *Hold) Abandoned() <-chan struct{} { return h.abandoned }

// Release lets the held request be answered.
func (h *Hold) Release() { h.releaseOnce.Do(func() { close(h.release) }) }

// wait holds r until Release (true) or until its client goes away (false).
func (h *Hold) wait(r *http.Request) bool {
	h.arriveOnce.Do(func() { close(h.arrived) })
	select {
	case <-h.release:
		return true
	case <-r.Context().Done():
		close(h.abandoned)
		return false
	}
}
