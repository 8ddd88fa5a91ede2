package chromium

import "sync"

// udpOff holds the DevTools URL of every browser this process launched with WebRTC's UDP
// turned off and has not closed, so a session in one (also one an Allocator shares, as in
// run) knows its profile holds WebRTC to the proxy.
var udpOff = struct {
	sync.Mutex
	urls map[string]bool
}{urls: map[string]bool{}}

// WebRTCUDPOff reports whether wsURL is the DevTools endpoint of a running browser this
// process launched without Options.WebRTCUDP: one whose WebRTC sends no UDP and whose WebRTC
// TCP goes through each browser context's proxy. Any other browser (attached, or launched
// elsewhere) is unknown and reported false.
func WebRTCUDPOff(wsURL string) bool {
	udpOff.Lock()
	defer udpOff.Unlock()
	return udpOff.urls[wsURL]
}

func noteUDPOff(wsURL string, off bool) {
	udpOff.Lock()
	defer udpOff.Unlock()
	if off {
		udpOff.urls[wsURL] = true
	} else {
		delete(udpOff.urls, wsURL)
	}
}
