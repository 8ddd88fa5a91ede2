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
	StartupTimeout time.Duration // 0 means budgets.BrowserStartup.Default; over its ceiling is an error
	ExtraArgs      []string      // appended after the launcher's own flags
	Log            io.Writer     // receives Chromium's drained stdout and stderr; nil discards
}

func (o Options) executable() string {
	if o.Executable == "" {
		return DefaultExecutable
	}
	return o.Executable
}
