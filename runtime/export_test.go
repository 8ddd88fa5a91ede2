package runtime

import (
	"context"
	"time"

	"github.com/fastbrowser/fastbrowser/runtime/chromium"
)

// AcquireForTest is Allocator.acquire for the external tests: what one opening session gets.
func (a *Allocator) AcquireForTest(ctx context.Context, onRelaunch func(Relaunch)) (string, *chromium.Browser, error) {
	return a.acquire(ctx, onRelaunch)
}

// SetClockForTest gives the session's hosted-task leases a clock the test controls.
func (r *Runtime) SetClockForTest(clock func() time.Time) { r.clock = clock }
