package budgets

import "time"

// The browser's gate (runtime/internal/cdpgate): the one DevTools connection of a browser fastbrowser
// launched, which every worker and attached client reaches it through.
const (
	// BrowserMessageBytes is the largest CDP message the gate carries either way (a
	// screenshot's answer is base64 of at most ScreenshotBytes; a huge page's accessibility
	// tree is tens of MiB). A larger one from the browser is dropped, its caller left to its
	// own budget; a larger one from a client ends that client.
	BrowserMessageBytes = 256 << 20
	// GateClientQueue is how many messages from the browser wait for one client before the
	// gate's reader waits for it.
	GateClientQueue = 1024
	// GateClientStall is how long the gate's reader, which serves every client, waits for a
	// client whose queue is full; past it that client is cut off (it stopped reading).
	GateClientStall = 5 * time.Second
	// GateAttach bounds the browser's answer when a client is given its own browser
	// session (Target.attachToBrowserTarget), and the gate's other calls of its own.
	GateAttach = 5 * time.Second
)
