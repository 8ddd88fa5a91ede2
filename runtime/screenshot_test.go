package runtime_test

import (
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/transport"
)

// TestScreenshotOperation: screenshot keeps a redacted PNG in the store and answers with its
// metadata (never the bytes); a page whose redaction cannot be proven fails the operation
// with redaction_not_proven and keeps nothing.
func TestScreenshotOperation(t *testing.T) {
	t.Parallel()
	srv := runtimetest.Fixture()
	defer srv.Close()
	site := srv.URL
	rt, store := openWithEvidence(t, site, []transport.RedactionRule{{Label: "Account number"}})
	if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site + "/form"}); err != nil {
		t.Fatal(err)
	}
	res, err := transport.Dispatch(bg, rt, transport.Screenshot{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Tab != "t1" || res.Payload != nil || res.Artifact == nil || res.Artifact.Kind != "screenshot" || res.Redaction == nil || !res.Redaction.Proven {
		t.Fatalf("result %+v", res)
	}
	f, err := os.Open(filepath.Join(store.Root(), res.Artifact.Path))
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(f)
	f.Close()
	if err != nil || img.Bounds().Dx() == 0 {
		t.Fatalf("the stored screenshot is not a PNG: %v", err)
	}
	if res.Redaction.Matched == 0 {
		t.Fatalf("the sign-in form's password field was not masked: %+v", res.Redaction)
	}

	if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site + "/unmaskable"}); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadDir(filepath.Dir(filepath.Join(store.Root(), res.Artifact.Path)))
	_, err = transport.Dispatch(bg, rt, transport.Screenshot{})
	if oe := transport.AsOperationError("", err); oe.Code != transport.CodeRedactionNotProven || oe.MutationState != transport.NotAttempted {
		t.Fatalf("screenshot of an unmaskable page: %v, want redaction_not_proven", err)
	}
	after, _ := os.ReadDir(filepath.Dir(filepath.Join(store.Root(), res.Artifact.Path)))
	if len(after) != len(before) {
		t.Fatalf("a refused screenshot left a file: %d entries, then %d", len(before), len(after))
	}
}
