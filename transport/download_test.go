package transport

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/budgets"
)

// TestDownloadValidate: a download needs a target of act's shape and a timeoutMs inside the
// download budget; each refusal names its field.
func TestDownloadValidate(t *testing.T) {
	link := Target{Role: "link", Name: Match("Monthly report")}
	for _, c := range []struct {
		req        Download
		code, path string
	}{
		{Download{Target: link}, "", ""},
		{Download{Target: Target{Ref: "e3"}, TimeoutMs: 60000}, "", ""},
		{Download{}, string(CodeInvalidRequest), "request.target"},
		{Download{Target: Target{Ref: "e3", Role: "link"}}, string(CodeInvalidRequest), "request.target"},
		{Download{Target: link, TimeoutMs: 60001}, string(CodeBudgetExceeded), "request.timeoutMs"},
		{Download{Target: link, TimeoutMs: -1}, string(CodeBudgetExceeded), "request.timeoutMs"},
	} {
		err := c.req.Validate()
		if c.code == "" {
			if err != nil {
				t.Errorf("%+v refused: %v", c.req, err)
			}
			continue
		}
		oe := AsOperationError("", err)
		if oe == nil || string(oe.Code) != c.code || oe.Path != c.path || oe.Operation != OpDownload {
			t.Errorf("%+v: %v, want %s at %s", c.req, err, c.code, c.path)
		}
	}
}

// TestDownloadFitsAFrame: the largest download the worker sends, base64 in one result frame
// with the rest of the result, stays under the frame limit, so the cap, not the transport,
// is what refuses a large file.
func TestDownloadFitsAFrame(t *testing.T) {
	data := strings.Repeat("A", base64.StdEncoding.EncodedLen(budgets.DownloadBytes))
	res := DownloadResult{Tab: strings.Repeat("T", budgets.TabHandleBytes),
		Committed:         Committed{Payload: &ArtifactPayload{Kind: PartDownload, ContentType: "application/octet-stream", Encoding: "base64", DataBase64: data, ByteLength: budgets.DownloadBytes}},
		SuggestedFilename: strings.Repeat("n", 4096), URL: "https://a.test/" + strings.Repeat("p", budgets.URLBytes)}
	result, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	frame, err := json.Marshal(ResponseFrame{V: 1, ID: strings.Repeat("i", budgets.RequestIDBytes), Result: result, Posture: "ok"})
	if err != nil {
		t.Fatal(err)
	}
	if len(frame) >= budgets.FrameBytes {
		t.Fatalf("a download of %d bytes makes a %d-byte frame; the limit is %d", budgets.DownloadBytes, len(frame), budgets.FrameBytes)
	}
}
