package chromium

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// profileInUseExit is Chromium's exit code when another browser holds the profile's
// SingletonLock (RESULT_CODE_PROFILE_IN_USE): it refuses to share a profile.
const profileInUseExit = 21

// openProfile is the user data directory a launch uses: opts.UserDataDir (created 0700 when
// missing), which is the caller's and is never removed, or else a fresh temporary profile,
// tracked so that an abrupt exit removes it too.
func openProfile(opts Options) (dir string, temporary bool, err error) {
	if opts.UserDataDir == "" {
		dir, err := os.MkdirTemp("", profilePattern)
		if err != nil {
			return "", false, &LaunchError{Reason: "cannot create a profile directory", Err: err}
		}
		trackProfile(dir)
		return dir, true, nil
	}
	if !filepath.IsAbs(opts.UserDataDir) {
		return "", false, &LaunchError{Reason: fmt.Sprintf("profile directory %s is not an absolute path", opts.UserDataDir)}
	}
	dir = filepath.Clean(opts.UserDataDir)
	if filepath.Dir(dir) == filepath.Clean(os.TempDir()) && strings.HasPrefix(filepath.Base(dir), profilePrefix) {
		// sweepStale would take it for a leaked temporary profile once no browser holds it.
		return "", false, &LaunchError{Reason: fmt.Sprintf("profile directory %s has the name of a temporary profile, which a later launch may remove", dir)}
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", false, &LaunchError{Reason: "cannot create the profile directory " + opts.UserDataDir, Err: err}
	}
	return dir, false, nil
}

// dropProfile is what a browser's profile gets once the browser is gone: a temporary one is
// removed; a persistent one keeps everything but the singleton directory under the temp
// directory that Chromium leaves behind when it is killed.
func dropProfile(dir string, temporary bool) error {
	if temporary {
		return removeProfile(dir)
	}
	removeSingletonDir(dir)
	return nil
}
