package chromium

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPersistentProfileRefused: a persistent profile must be an absolute path, and not one
// named like a temporary profile right under the temp directory, which sweepStale would
// take for a leaked one and remove once no browser held it. Neither launch starts a browser.
func TestPersistentProfileRefused(t *testing.T) {
	t.Parallel()
	swept := filepath.Join(os.TempDir(), profilePrefix+"mine")
	for dir, want := range map[string]string{
		"relative/profile": "is not an absolute path",
		swept:              "has the name of a temporary profile",
	} {
		_, err := Launch(context.Background(), Options{UserDataDir: dir})
		var le *LaunchError
		if !errors.As(err, &le) || !strings.Contains(le.Reason, want) {
			t.Errorf("UserDataDir %s: %v, want a launch error saying %q", dir, err, want)
		}
	}
	if _, err := os.Stat(swept); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the refused profile was created: %v", err)
	}
}
