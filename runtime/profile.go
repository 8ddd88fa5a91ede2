package runtime

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/fastbrowser/fastbrowser/runtime/chromium"
	"github.com/fastbrowser/fastbrowser/runtime/internal/egressproxy"
	"github.com/fastbrowser/fastbrowser/transport"
)

// A persistent profile (Options.Profile) is the user data directory of the browser the
// session launches for itself: its cookies and storage outlast the session, and nothing
// removes it. The session runs in the browser's default context (a context DevTools
// creates is off the record, so it would keep nothing), whose proxy only the command line
// can set: the egress proxy starts before the browser, and the browser is launched
// pointing at it.

// checkProfile refuses a profile the session cannot hold: one with no browser of its own
// to launch, or a path that is not an absolute directory.
func checkProfile(opts Options) error {
	if opts.Profile == "" {
		return nil
	}
	switch {
	case opts.CDPURL != "":
		return transport.Invalid("", "profile", "a persistent profile needs a browser fastbrowser launches; with cdpURL the session attaches to one")
	case opts.Allocator != nil:
		return transport.Invalid("", "profile", "a persistent profile needs a browser of the session's own; an Allocator's browser is shared")
	case !filepath.IsAbs(opts.Profile):
		return transport.Invalid("", "profile", "expected an absolute directory path, got %q", opts.Profile)
	}
	fi, err := os.Stat(opts.Profile)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil // the launch creates it
	case err != nil:
		return transport.Invalid("", "profile", "cannot use %s: %s", opts.Profile, err.Error())
	case !fi.IsDir():
		return transport.Invalid("", "profile", "expected a directory, %s is not one", opts.Profile)
	}
	return nil
}

// withProfile is the launch of a session's own browser over its persistent profile: the
// directory, and the egress proxy (when the session has one) as the browser's own proxy,
// loopback included ("<-loopback>", which Chromium would otherwise send direct).
func withProfile(launch chromium.Options, dir string, px *egressproxy.Proxy) chromium.Options {
	launch.UserDataDir = dir
	if px != nil {
		launch.ExtraArgs = append(launch.ExtraArgs, "--proxy-server="+px.URL(), "--proxy-bypass-list=<-loopback>")
	}
	return launch
}
