package chromium

import "sync"

// launched is every browser this process launched and has not closed, so a session that
// attached by URL to one of them (tests, a --worker command) can still learn what its
// profile holds.
var launched = struct {
	sync.Mutex
	set map[*Browser]bool
}{set: map[*Browser]bool{}}

func track(b *Browser) {
	launched.Lock()
	launched.set[b] = true
	launched.Unlock()
}

func untrack(b *Browser) {
	launched.Lock()
	delete(launched.set, b)
	launched.Unlock()
}

// WebRTCUDPOff reports whether wsURL is the WebSocketURL of a running browser this process
// launched without Options.WebRTCUDP: one whose WebRTC sends no UDP and whose WebRTC TCP goes
// through each browser context's proxy. Any other browser (attached, or launched elsewhere)
// is unknown and reported false.
func WebRTCUDPOff(wsURL string) bool {
	launched.Lock()
	defer launched.Unlock()
	for b := range launched.set {
		if b.udpOff {
			if url, err := b.gate.WebSocketURLIfStarted(); err == nil && url != "" && url == wsURL {
				return true
			}
		}
	}
	return false
}
