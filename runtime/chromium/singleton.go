package chromium

import (
	"os"
	"path/filepath"
	"strings"
)

// singletonDirPrefix names the directory Chromium makes under TMPDIR for its process
// singleton (SingletonSocket, SingletonCookie). Chromium removes it on a clean exit only, and
// a killed browser leaves it behind. Pointing TMPDIR into the profile instead does not work:
// the socket path then often exceeds the 108-byte limit of a Unix socket address and
// Chromium aborts at start.
const singletonDirPrefix = "org.chromium.Chromium."

// removeSingletonDir removes the singleton directory of the browser that used profile. The
// profile's SingletonSocket symlink names it; only an absolute directory whose name has the
// singleton prefix is removed, so a stray link cannot point the removal elsewhere.
func removeSingletonDir(profile string) {
	target, err := os.Readlink(filepath.Join(profile, "SingletonSocket"))
	if err != nil || !filepath.IsAbs(target) {
		return
	}
	dir := filepath.Dir(filepath.Clean(target))
	if !strings.HasPrefix(filepath.Base(dir), singletonDirPrefix) {
		return
	}
	_ = os.RemoveAll(dir)
}
