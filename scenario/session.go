package scenario

import "github.com/fastbrowser/fastbrowser/transport"

// Session is the browser session a scenario runs in: the part of a *runtime.Runtime the
// runner uses. Naming it here keeps the runner, and the tests of everything before a session
// opens (parse, schema, matcher, tab references), free of a browser.
type Session interface {
	transport.Caller
	// Enforcement lists where the session's origin policy is enforced ("browser", "proxy").
	Enforcement() []string
	// Close ends the session; the runner calls it once, in finally.
	Close() error
}
