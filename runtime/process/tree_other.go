//go:build !linux

package process

import (
	"syscall"
	"time"
)

// Outside Linux there is no /proc to find descendants by their environment: TrackTree adds
// nothing to the group signal.
func newMarker() string                     { return "" }
func signalTree(string, syscall.Signal) int { return 0 }
func killTree(string, time.Time) error      { return nil }
func awaitTreeGone(string, time.Time)       {}
