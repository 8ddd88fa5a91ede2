package chromium

import (
	"fmt"
	"os"
	"sync"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/runtime/process"
)

// Browser is a running Chromium owned by the caller, who must Close it.
type Browser struct {
	proc    *process.Process
	wsURL   string
	profile string
	// temporary: the profile is the launcher's own, removed once the browser is gone
	// (false: Options.UserDataDir, which is never removed).
	temporary bool

	closeOnce sync.Once
	closeErr  error
}

// WebSocketURL is the browser-level DevTools endpoint, ws://127.0.0.1:PORT/devtools/browser/ID.
func (b *Browser) WebSocketURL() string { return b.wsURL }

// ProfileDir is the browser's temporary profile, which Close removes; "" for a persistent
// one (Options.UserDataDir), which nothing may remove.
func (b *Browser) ProfileDir() string {
	if !b.temporary {
		return ""
	}
	return b.profile
}

// Pid is the browser process's id (the leader of its process group).
func (b *Browser) Pid() int { return b.proc.Pid() }

// Done is closed when the browser process has been reaped, whether by Close or because it
// died on its own.
func (b *Browser) Done() <-chan struct{} { return b.proc.Done() }

// Close stops the browser's process group (SIGTERM, then SIGKILL after
// budgets.ProcessStopGrace().Default) and removes a temporary profile once the browser is
// reaped. A browser on a persistent profile is first asked to close (quit, within the same
// grace again), so its data is written. It is idempotent and safe for concurrent use; every
// call returns the first call's result.
func (b *Browser) Close() error {
	b.closeOnce.Do(func() {
		grace := budgets.ProcessStopGrace().Default
		b.closeErr = b.teardown(func() error {
			if !b.temporary {
				b.quit(grace) // its data is written before the group is stopped
			}
			return b.proc.Stop(grace)
		})
	})
	return b.closeErr
}

// teardown stops the process with stop and then removes a temporary profile (dropProfile).
// If the browser could not be reaped it may still be writing there, so the profile is left
// (findable by its name) rather than half removed under a live process.
func (b *Browser) teardown(stop func() error) error {
	noteUDPOff(b.wsURL, false)
	if err := stop(); err != nil {
		return fmt.Errorf("chromium: stop pid %d (profile %s left in place): %w", b.Pid(), b.profile, err)
	}
	return dropProfile(b.profile, b.temporary)
}

func removeProfile(dir string) error {
	removeSingletonDir(dir)
	if os.RemoveAll(dir) == nil {
		untrackProfile(dir)
		return nil
	}
	// One retry: a just-killed helper process may have finished a write into the profile
	// while the first pass walked it.
	if err := os.RemoveAll(dir); err != nil {
		return fmt.Errorf("chromium: remove profile: %w", err)
	}
	untrackProfile(dir)
	return nil
}

// RemoveProfile removes a stopped browser's profile and the singleton directory its
// SingletonSocket link names, as Close does for a launched browser's (for a browser started
// some other way, such as a test's plain Chromium).
func RemoveProfile(dir string) error { return removeProfile(dir) }
