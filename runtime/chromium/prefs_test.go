package chromium

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPreferencesOverAPersistentProfile: a launch over a profile that already has
// Preferences (a persistent profile's second launch) keeps what is there, sets the
// launcher's keys again, and removes the WebRTC one when UDP is to stay on; a Preferences
// that is not JSON is left alone and the launch refused.
func TestPreferencesOverAPersistentProfile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "Default", "Preferences")
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	kept := `{"profile":{"name":"mine","exit_type":"Normal"},"net":{"network_prediction_options":0,"other":1},"big":12345678901234567890}`
	if err := os.WriteFile(path, []byte(kept), 0o600); err != nil {
		t.Fatal(err)
	}
	read := func() map[string]any {
		t.Helper()
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(raw), "12345678901234567890") {
			t.Errorf("a large integer did not survive: %s", raw)
		}
		var m map[string]any
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	if err := writePreferences(dir, Options{}); err != nil {
		t.Fatal(err)
	}
	m := read()
	net := m["net"].(map[string]any)
	if m["profile"].(map[string]any)["name"] != "mine" || net["other"] != 1.0 || net["network_prediction_options"] != 2.0 ||
		m["webrtc"].(map[string]any)["ip_handling_policy"] != webrtcUDPOff {
		t.Fatalf("after the second launch's preferences: %v", m)
	}
	if err := writePreferences(dir, Options{WebRTCUDP: true}); err != nil {
		t.Fatal(err)
	}
	if _, ok := read()["webrtc"].(map[string]any)["ip_handling_policy"]; ok {
		t.Fatal("a launch keeping WebRTC's UDP on left the policy that turns it off")
	}

	if err := os.WriteFile(path, []byte("not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := writePreferences(dir, Options{}); err == nil {
		t.Fatal("a Preferences that is not JSON was overwritten")
	}
	if raw, _ := os.ReadFile(path); string(raw) != "not json" {
		t.Fatalf("the unreadable Preferences was changed: %q", raw)
	}
}
