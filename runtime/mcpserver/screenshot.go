package mcpserver

import (
	"bytes"
	"fmt"
	"image/png"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fastbrowser/fastbrowser/artifacts"
	"github.com/fastbrowser/fastbrowser/transport"
)

// screenshotImage is a screenshot's PNG as an MCP image, only for a proven redaction: the
// bytes are read back through the store's own read-back (artifacts.ReadCommitted: the
// store's layout, no symlink, the recorded size and SHA-256), from the path the runtime
// committed, never one a client names. A result without a proven proof or an artifact has
// no image; one whose artifact does not read back as committed is an error, not a picture
// of something else.
func screenshotImage(root string, result transport.Result) (*mcp.ImageContent, error) {
	r, ok := result.(*transport.ScreenshotResult)
	if !ok || r.Redaction == nil || !r.Redaction.Proven || r.Artifact == nil {
		return nil, nil
	}
	m := *r.Artifact
	if m.Kind != transport.PartScreenshot || m.ContentType != "image/png" {
		return nil, fmt.Errorf("artifact %s is a %s (%s), not a PNG screenshot", m.ID, m.Kind, m.ContentType)
	}
	data, err := artifacts.ReadCommitted(root, m)
	if err != nil {
		return nil, err
	}
	// A PNG header that does not decode would be shown as a broken image: refuse it here.
	if _, err := png.DecodeConfig(bytes.NewReader(data)); err != nil {
		return nil, fmt.Errorf("artifact %s is not a PNG: %w", m.ID, err)
	}
	return &mcp.ImageContent{Data: data, MIMEType: "image/png"}, nil
}
