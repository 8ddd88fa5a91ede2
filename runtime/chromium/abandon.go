package chromium

import (
	"os"
	"sync"
	"time"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/runtime/process"
)

// live is every profile directory of a browser this process launched and has not yet torn
// down, for an abrupt exit that runs no Close.
var live = struct {
	sync.Mutex
	dirs map[string]bool
}{dirs: map[string]bool{}}

// trackProfile also registers dir with the process supervisor (if one is up), which removes
// it if this process dies by SIGKILL, when nothing here can.
func trackProfile(dir string) {
	live.Lock()
	live.dirs[dir] = true
	live.Unlock()
	process.RemoveOnAbruptEnd(dir)
}

func untrackProfile(dir string) {
	live.Lock()
	delete(live.dirs, dir)
	live.Unlock()
	process.ForgetRemoval(dir)
}

// RemoveProfilesAfterKill removes the profile of every browser not yet closed. It is for an
// abrupt exit (a second Ctrl-C), called after process.KillAll: the browsers are dead or
// dying, so nothing orderly will remove their profiles. A helper that was still writing when
// killed can refill a directory during the first pass, so one bounded retry follows.
func RemoveProfilesAfterKill() {
	live.Lock()
	dirs := make([]string, 0, len(live.dirs))
	for d := range live.dirs {
		dirs = append(dirs, d)
	}
	live.Unlock()
	for _, d := range dirs {
		removeSingletonDir(d)
		if os.RemoveAll(d) != nil {
			time.Sleep(budgets.ProfileRemoveRetry)
			_ = os.RemoveAll(d)
		}
	}
}
