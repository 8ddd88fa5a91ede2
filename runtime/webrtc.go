package runtime

import (
	"github.com/fastbrowser/fastbrowser/runtime/chromium"
	"github.com/fastbrowser/fastbrowser/runtime/internal/egressproxy"
	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/policy"
)

// Options.WebRTC values.
const (
	WebRTCBlock = "block" // the default: RTCPeerConnection throws in every document
	WebRTCAllow = "allow"
)

// WebRTC in a session, by layer (see docs/protocol.md "Egress"):
//   - block (default): the worker makes RTCPeerConnection throw in every document, so no
//     ICE transport is opened; on a browser fastbrowser launched, WebRTC's UDP is also off
//     and its TCP goes through the egress proxy (chromium prefs), whatever a page gets past
//     the script.
//   - allow under a restricted policy: pages may use WebRTC, but only over TCP relays
//     (TURN over TCP, ICE-TCP) that the egress proxy admits, so never outside the policy.
//     That needs both layers below the script, which only a browser fastbrowser launched
//     with its proxy has; anywhere else the session is refused.
//   - allow under "*": a browser launched for such a session keeps WebRTC's UDP on, so
//     WebRTC works in full (a narrowing context does not hold for it); `run` launches a
//     second shared browser for those scenarios. An attached browser has whatever its
//     profile says.

// webrtcUDP says whether a browser launched for this session alone keeps WebRTC's UDP on.
func webrtcUDP(base policy.Policy, opts Options) bool {
	return opts.WebRTC == WebRTCAllow && base.IsAny()
}

// checkWebRTC refuses "allow" under a restricted policy where WebRTC could leave the policy:
// a browser whose WebRTC UDP the runtime cannot vouch for, or a session without the egress
// proxy to hold WebRTC's TCP.
func checkWebRTC(base policy.Policy, opts Options, launched *chromium.Browser, cdpURL string, px *egressproxy.Proxy) error {
	if opts.WebRTC != WebRTCAllow || base.IsAny() {
		return nil
	}
	udpOff := chromium.WebRTCUDPOff(cdpURL) // attached by URL to a browser this process launched
	if launched != nil {
		udpOff = launched.WebRTCUDPOff()
	}
	if px == nil || !udpOff {
		return transport.Invalid("", "webrtc",
			`"allow" under a restricted origin policy needs a browser fastbrowser launched, behind its egress proxy: only there is WebRTC held to TCP relays the proxy admits`)
	}
	return nil
}
