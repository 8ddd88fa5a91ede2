package proctest

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"time"
)

// SyncBuffer is a bytes.Buffer a test reads while a child process (or a goroutine copying
// its output) writes to it. WaitFor lets the test wait for what the child writes as an
// event, without polling.
type SyncBuffer struct {
	mu      sync.Mutex
	b       bytes.Buffer
	written chan struct{} // closed and replaced on every write (nil until a waiter asks)
}

func (s *SyncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.written != nil {
		close(s.written)
		s.written = nil
	}
	return s.b.Write(p)
}

func (s *SyncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// WaitFor waits until the buffer holds want, or within has passed (a guard against a hang,
// not a measurement).
func (s *SyncBuffer) WaitFor(want string, within time.Duration) error {
	timer := time.NewTimer(within)
	defer timer.Stop()
	for {
		s.mu.Lock()
		if strings.Contains(s.b.String(), want) {
			s.mu.Unlock()
			return nil
		}
		if s.written == nil {
			s.written = make(chan struct{})
		}
		written := s.written
		s.mu.Unlock()
		select {
		case <-written:
		case <-timer.C:
			return fmt.Errorf("%q was not written within %s", want, within)
		}
	}
}
