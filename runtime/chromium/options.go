package chromium

import (
	"io"
	"time"
)

// DefaultExecutable is Debian's Chromium.
const DefaultExecutable = "/usr/bin/chromium"

// Options configures Launch. The zero value launches a headless DefaultExecutable.
type Options struct {
	Executable     string        // "" means DefaultExecutable; used as given, never looked up on PATH
	Headed         bool          // default headless (--headless=new)
	StartupTimeout time.Duration // 0 means budgets.BrowserStartup().Default; over its ceiling is an error
	ExtraArgs      []string      // appended after the launcher's own flags
	Log            io.Writer     // receives Chromium's drained stdout and stderr; nil discards
	// WebRTCUDP leaves WebRTC's UDP on. By default the profile turns it off and sends WebRTC's
	// TCP through each browser context's proxy (prefs.go); only a session that allows WebRTC
	// under a "*" policy wants it on.
	WebRTCUDP bool
	// UserDataDir is a persistent profile (an absolute path, created 0700 when missing): the
	// browser keeps its cookies and storage there, and nothing removes it. "" launches with a
	// fresh temporary profile that Close removes. Chromium holds a profile exclusively: a
	// second browser on it fails to launch.
	UserDataDir string
}

func (o Options) executable() string {
	if o.Executable == "" {
		return DefaultExecutable
	}
	return o.Executable
}
