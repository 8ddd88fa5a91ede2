package runtime

// What an interactive session shows about its browser (scenario/sessions).

// DevToolsURL is the browser's DevTools endpoint: where a person can watch and act in the
// same browser the session drives. For a launched browser it is the token websocket
// (chromium.Browser.WebSocketURL: only this user, only with the token), which starts
// listening on this first call; for an attached one, the URL attached at.
func (r *Runtime) DevToolsURL() string {
	if r.launched != nil {
		return r.launched.WebSocketURL()
	}
	return r.cdpURL
}

// ProfileDir is the temporary profile of the browser this session launched for itself ("":
// attached, a browser shared through an Allocator it does not own, or a persistent profile,
// Options.Profile, which is never removed), so that whoever finds the session's process
// killed can remove it.
func (r *Runtime) ProfileDir() string {
	if r.launched == nil || !r.ownAlloc {
		return ""
	}
	return r.launched.ProfileDir()
}

// BrowserDone is closed when the browser this session launched exits (nil when attached:
// an attached browser's end is learnt from the next call).
func (r *Runtime) BrowserDone() <-chan struct{} {
	if r.launched == nil {
		return nil
	}
	return r.launched.Done()
}
