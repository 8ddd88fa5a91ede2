package chromium

import (
	"os"
	"path/filepath"
)

// Preferences seeded in every fresh profile:
//   - network prediction off (DNS prefetch and speculative preconnect): without it Chromium
//     opens a TCP connection to a navigation's origin before the request reaches Fetch
//     interception, so a refused origin would still see a connection;
//   - WebRTC limited to proxied traffic (webrtc.ip_handling_policy): no UDP at all (STUN,
//     TURN over UDP, ICE checks), and its TCP (TURN over TCP, ICE-TCP) goes through the
//     browser context's proxy, the egress proxy. Measured on Chromium 156, in CDP browser
//     contexts too: 0 UDP packets reach a TURN listener, and TURN over TCP arrives at the
//     context's proxy as a CONNECT. (The --force-webrtc-ip-handling-policy switch does not
//     do this: the same page still sent 10 TURN allocations over UDP.)
const (
	preferences        = `{"net":{"network_prediction_options":2},"webrtc":{"ip_handling_policy":"disable_non_proxied_udp"}}`
	preferencesWithUDP = `{"net":{"network_prediction_options":2}}`
)

// writePreferences seeds a fresh profile's Default/Preferences (0600, in the 0700 profile).
func writePreferences(profile string, opts Options) error {
	dir := filepath.Join(profile, "Default")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	prefs := preferences
	if opts.WebRTCUDP {
		prefs = preferencesWithUDP
	}
	return os.WriteFile(filepath.Join(dir, "Preferences"), []byte(prefs), 0o600)
}
