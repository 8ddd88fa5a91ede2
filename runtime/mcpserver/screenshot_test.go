package mcpserver

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/fastbrowser/fastbrowser/transport"
)

// commitPNG writes a small PNG where the store would have committed it and returns the
// result a screenshot operation answers with.
func commitPNG(t *testing.T, root string, proven bool) (*transport.ScreenshotResult, []byte) {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewGray(image.Rect(0, 0, 3, 2))); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	dir := filepath.Join(root, "mcp-run1", "run1")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "a1.png"), data, 0o600); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	meta := transport.ArtifactMeta{ID: "a1", Kind: transport.PartScreenshot, Path: "mcp-run1/run1/a1.png", Bytes: int64(len(data)),
		ContentType: "image/png", SHA256: hex.EncodeToString(sum[:]), LocalOnly: true}
	return &transport.ScreenshotResult{Committed: transport.Committed{Artifact: &meta},
		Redaction: &transport.RedactionProof{Rules: []string{"password"}, Matched: 1, Masked: 1, Proven: proven}}, data
}

// TestScreenshotImageOnlyProvenAndAsCommitted: the image is the committed bytes, only for a
// proven redaction, and never what the store holds once it differs from what was committed
// or lies outside the store's layout.
func TestScreenshotImageOnlyProvenAndAsCommitted(t *testing.T) {
	root := t.TempDir()
	res, data := commitPNG(t, root, true)
	img, err := screenshotImage(root, res)
	if err != nil || img == nil || img.MIMEType != "image/png" || !bytes.Equal(img.Data, data) {
		t.Fatalf("proven: %v, %v; want the committed PNG", img, err)
	}

	unproven, _ := commitPNG(t, root, false)
	if img, err := screenshotImage(root, unproven); img != nil || err != nil {
		t.Errorf("unproven: %v, %v; want no image", img, err)
	}

	outside := *res.Artifact
	outside.Path = "../elsewhere/run1/a1.png"
	if img, err := screenshotImage(root, &transport.ScreenshotResult{Committed: transport.Committed{Artifact: &outside}, Redaction: res.Redaction}); img != nil || err == nil {
		t.Errorf("a path outside the store's layout: %v, %v; want an error", img, err)
	}

	// Swapped after it was committed: same size, other bytes.
	swapped := bytes.Clone(data)
	swapped[len(swapped)-1] ^= 0xff
	if err := os.WriteFile(filepath.Join(root, "mcp-run1", "run1", "a1.png"), swapped, 0o600); err != nil {
		t.Fatal(err)
	}
	if img, err := screenshotImage(root, res); img != nil || err == nil {
		t.Errorf("bytes swapped since the commit: %v, %v; want an error", img, err)
	}
}
