//go:build linux

package chromium

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestWebRTCUDPPreference: every fresh profile turns WebRTC's UDP off through the
// preference that works (the command-line switch did not; see prefs.go), unless the launch
// asks to keep it; WebRTCUDPOff vouches only for a running browser launched with it off.
func TestWebRTCUDPPreference(t *testing.T) {
	t.Parallel()
	policyOf := func(profile string) string {
		t.Helper()
		raw, err := os.ReadFile(filepath.Join(profile, "Default", "Preferences"))
		if err != nil {
			t.Fatal(err)
		}
		var prefs struct {
			WebRTC struct {
				Policy string `json:"ip_handling_policy"`
			} `json:"webrtc"`
		}
		if err := json.Unmarshal(raw, &prefs); err != nil {
			t.Fatal(err)
		}
		return prefs.WebRTC.Policy
	}
	for _, tt := range []struct {
		opts   Options
		policy string
	}{
		{Options{}, "disable_non_proxied_udp"},
		{Options{WebRTCUDP: true}, ""},
	} {
		dir := t.TempDir()
		if err := writePreferences(dir, tt.opts); err != nil {
			t.Fatal(err)
		}
		if got := policyOf(dir); got != tt.policy {
			t.Errorf("WebRTCUDP %v: ip_handling_policy %q, want %q", tt.opts.WebRTCUDP, got, tt.policy)
		}
	}
	for _, a := range args(Options{}, "/p") {
		if a == "--force-webrtc-ip-handling-policy=disable_non_proxied_udp" {
			t.Error("the launch still passes the WebRTC switch that has no effect")
		}
	}

	off := launch(t, Options{})
	on := launch(t, Options{WebRTCUDP: true})
	if !WebRTCUDPOff(off.WebSocketURL()) || WebRTCUDPOff(on.WebSocketURL()) || WebRTCUDPOff("ws://127.0.0.1:1/devtools/browser/x") {
		t.Fatalf("WebRTCUDPOff: launched off %v, launched on %v, unknown %v", WebRTCUDPOff(off.WebSocketURL()), WebRTCUDPOff(on.WebSocketURL()),
			WebRTCUDPOff("ws://127.0.0.1:1/devtools/browser/x"))
	}
	if err := off.Close(); err != nil {
		t.Fatal(err)
	}
	if WebRTCUDPOff(off.WebSocketURL()) {
		t.Fatal("a closed browser is still vouched for")
	}
}
