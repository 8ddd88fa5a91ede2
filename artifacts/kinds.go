package artifacts

import (
	"errors"

	"github.com/fastbrowser/fastbrowser/budgets"
)

// ErrTooLarge is returned (wrapped) when an artifact would exceed its kind's size limit.
var ErrTooLarge = errors.New("artifact_too_large: artifact exceeds its size limit")

// kindInfo is what a kind decides: the file extension, the content type and the size limit.
type kindInfo struct {
	ext         string
	contentType string
	limit       int64
	diagnostics bool // may be cut to the limit and marked truncated; a screenshot may not
}

var kinds = map[string]kindInfo{
	"screenshot": {ext: "png", contentType: "image/png", limit: budgets.ScreenshotBytes},
	"console":    {ext: "json", contentType: "application/json", limit: budgets.DiagnosticsBytes, diagnostics: true},
	"network":    {ext: "json", contentType: "application/json", limit: budgets.DiagnosticsBytes, diagnostics: true},
	"outline":    {ext: "json", contentType: "application/json", limit: budgets.DiagnosticsBytes, diagnostics: true},
	// download is a file the page downloaded (the download operation), kept as it came: its
	// bytes are the server's, so it is never cut or rewritten.
	"download": {ext: "bin", contentType: "application/octet-stream", limit: budgets.DownloadBytes},
	// log is a hook's or fixture server's output, as text.
	"log": {ext: "log", contentType: "text/plain; charset=utf-8", limit: budgets.DiagnosticsBytes, diagnostics: true},
}
