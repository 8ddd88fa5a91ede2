package chromium

import (
	"os"
	"path/filepath"
)

// preferences turn off network prediction (DNS prefetch and speculative preconnect): without
// it Chromium opens a TCP connection to a navigation's origin before the request reaches
// Fetch interception, so a refused origin would still see a connection.
const preferences = `{"net":{"network_prediction_options":2}}`

// writePreferences seeds a fresh profile's Default/Preferences (0600, in the 0700 profile).
func writePreferences(profile string) error {
	dir := filepath.Join(profile, "Default")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "Preferences"), []byte(preferences), 0o600)
}
