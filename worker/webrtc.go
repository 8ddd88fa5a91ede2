package worker

// webrtcGuardJS makes RTCPeerConnection, and its old webkit alias, throw in a window: they
// are the only way a page opens ICE transports (STUN, TURN, ICE checks), whose UDP and TCP
// never pass through Fetch interception. RTCIceTransport cannot be constructed by pages, and
// workers have no RTCPeerConnection. The properties cannot be redefined, and the original
// constructor is reachable from no other global, so a page cannot get it back.
//
// This is the only WebRTC layer on a browser fastbrowser did not launch. A browser it
// launched also has WebRTC's UDP turned off and its TCP sent through the egress proxy
// (runtime/chromium/prefs.go), which holds even when WebRTC is allowed.
const webrtcGuardJS = `function (win) {
  const refuse = function RTCPeerConnection() {
    throw new win.DOMException('WebRTC is blocked by fastbrowser (egress.webrtc)', 'NotAllowedError');
  };
  for (const name of ['RTCPeerConnection', 'webkitRTCPeerConnection']) {
    define(win, name, {value: refuse, writable: false, configurable: false});
  }
}`

// webtransportGuardJS makes WebTransport throw in a window. Its QUIC (UDP) passes through
// neither Fetch interception nor the egress proxy; with the proxy set Chromium refuses it
// anyway, but a browser without one (remote, or the proxy turned off) sent UDP to an origin
// outside the policy. It is blocked wherever the session's base is not "*".
const webtransportGuardJS = `function (win) {
  const refuse = function WebTransport() {
    throw new win.DOMException('WebTransport is blocked by fastbrowser (origin policy)', 'NotAllowedError');
  };
  define(win, 'WebTransport', {value: refuse, writable: false, configurable: false});
}`
