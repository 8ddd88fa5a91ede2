package transport

import (
	"time"

	"github.com/fastbrowser/fastbrowser/budgets"
)

// PartDownload is a downloaded file's payload kind (and its artifact kind).
const PartDownload = "download"

// Download clicks an element whose click starts a download (a link with a download
// attribute, one answered Content-Disposition: attachment) and keeps the file in the
// session's artifact store. The download's URL is held to the origin policy like any request
// the page makes: a refused one fails egress_denied and nothing is kept. A file over
// budgets.DownloadBytes is cancelled and fails artifact_too_large. One call waits for one
// download: the first that begins after its click.
type Download struct {
	op[Download, DownloadResult]
	Tab    string `json:"tab,omitempty" handle:"tab"`
	Target Target `json:"target" required:"true"`
	// TimeoutMs bounds the whole operation: the click, the download's start and its end
	// (0: the download budget's 10 s; at most 60 s).
	TimeoutMs int `json:"timeoutMs,omitempty"`
}

// DownloadResult: from the worker it carries the file as Payload; the runtime commits it and
// returns Artifact (path, sha256, bytes) in its place, never the bytes.
type DownloadResult struct {
	Egress
	Tab string `json:"tab" handle:"tab"`
	Committed
	// SuggestedFilename is the name the page or the response suggested; the artifact's own
	// name is the store's.
	SuggestedFilename string `json:"suggestedFilename"`
	// URL is where the file came from, its origin and path only: a query or fragment may
	// hold a token.
	URL string `json:"url"`
}

func (r Download) Validate() error {
	if err := checkTab(OpDownload, "request.tab", r.Tab, false); err != nil {
		return err
	}
	if err := checkTarget(OpDownload, "request.target", r.Target); err != nil {
		return err
	}
	if _, err := budgets.Download().ResolveMs(int64(r.TimeoutMs)); err != nil {
		return NewError(OpDownload, PhaseValidate, CodeBudgetExceeded, RetryNever, NotAttempted, "timeoutMs must be between 0 and %d", budgets.Download().Ceiling.Milliseconds()).WithPath("request.timeoutMs")
	}
	return nil
}

// DownloadBudget is a download's own budget: its timeoutMs resolved against the download
// budget (Validate refused one it would not resolve).
func DownloadBudget(r *Download) time.Duration {
	d, err := budgets.Download().ResolveMs(int64(r.TimeoutMs))
	if err != nil {
		return budgets.Download().Default
	}
	return d
}

// downloadDeadline: the download's own budget plus the margin.
func downloadDeadline(op Operation, _ time.Duration) time.Duration {
	return DownloadBudget(op.(*Download)) + budgets.ClientMargin
}
