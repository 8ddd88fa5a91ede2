package chromium

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Preferences set in every profile a launch uses:
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
	predictionOff = 2
	webrtcUDPOff  = "disable_non_proxied_udp"
)

// writePreferences sets the launcher's preferences in the profile's Default/Preferences
// (0600, in a 0700 directory). A persistent profile's file already holds the person's own
// preferences and whatever Chromium keeps there: they stay, and only these keys are set
// (the WebRTC one removed when the launch keeps UDP on, as a fresh profile would not have
// it). A file that is not a JSON object is an error rather than something to overwrite.
func writePreferences(profile string, opts Options) error {
	dir := filepath.Join(profile, "Default")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	path := filepath.Join(dir, "Preferences")
	prefs := map[string]any{}
	switch raw, err := os.ReadFile(path); {
	case err == nil:
		d := json.NewDecoder(bytes.NewReader(raw))
		d.UseNumber() // Chromium's integers survive the round trip exactly
		if err := d.Decode(&prefs); err != nil || prefs == nil {
			return fmt.Errorf("%s is not a JSON object (left as it is)", path)
		}
	case !errors.Is(err, fs.ErrNotExist):
		return err
	}
	section(prefs, "net")["network_prediction_options"] = predictionOff
	if opts.WebRTCUDP {
		delete(section(prefs, "webrtc"), "ip_handling_policy")
	} else {
		section(prefs, "webrtc")["ip_handling_policy"] = webrtcUDPOff
	}
	out, err := json.Marshal(prefs)
	if err != nil {
		return err
	}
	// Written beside and renamed over, so a failed write never leaves a torn Preferences.
	tmp := path + ".fastbrowser-tmp"
	if err := os.WriteFile(tmp, out, 0o600); err != nil {
		_ = os.Remove(tmp)
		return err
	}
	return os.Rename(tmp, path)
}

// section is prefs[name] as an object, made (or replacing a non-object) when needed.
func section(prefs map[string]any, name string) map[string]any {
	if m, ok := prefs[name].(map[string]any); ok {
		return m
	}
	m := map[string]any{}
	prefs[name] = m
	return m
}
