package runtime_test

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/artifacts"
	"github.com/fastbrowser/fastbrowser/runtime"
	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/scenarios/fixture"
	"github.com/fastbrowser/fastbrowser/transport"
)

// openDownloads starts a session with an artifact store whose worker's temp directory is
// tmp (the worker inherits TMPDIR), so a test can see the worker's download directory.
func openDownloads(t *testing.T, tmp string, origins ...string) (*runtime.Runtime, *artifacts.Store) {
	t.Helper()
	b, err := runtimetest.Browser() // launched first: the shared browser keeps its own TMPDIR
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("TMPDIR", tmp)
	store, err := artifacts.Open(filepath.Join(t.TempDir(), "artifacts"), "download-test")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	rt := runtimetest.OpenWith(t, runtimetest.Options{CDPURL: b.WebSocketURL(), AllowedOrigins: origins,
		Evidence: &runtime.EvidenceOptions{Store: store, RunID: "run-1", Owner: "download-test"}})
	return rt, store
}

// downloadDirs lists the worker download directories under tmp, and the files in them.
func downloadDirs(t *testing.T, tmp string) (dirs, files []string) {
	t.Helper()
	dirs, _ = filepath.Glob(filepath.Join(tmp, "fastbrowser-download-*"))
	for _, d := range dirs {
		entries, err := os.ReadDir(d)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			files = append(files, e.Name())
		}
	}
	return dirs, files
}

// runFiles lists the artifacts of the session's run-1.
func runFiles(store *artifacts.Store) []string {
	entries, _ := os.ReadDir(filepath.Join(store.Root(), "download-test", "run-1"))
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// TestDownloadKeptAndCapped: a download is kept in the store, 0600, with its SHA-256 and
// byte count and never its bytes in the result; its URL is reported without the query (a
// token); one over the limit fails artifact_too_large and leaves nothing in the store or the
// worker's download directory; an act's download is not saved; the directory is private and
// goes with the session.
func TestDownloadKeptAndCapped(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	tmp := t.TempDir()
	rt, store := openDownloads(t, tmp, site.URL)
	if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + "/download/page"}); err != nil {
		t.Fatal(err)
	}
	res, err := transport.Dispatch(bg, rt, transport.Download{Target: transport.Target{Role: "link", Name: transport.Match("Monthly report")}})
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(fixture.DownloadReportBody))
	a := res.Artifact
	if res.Payload != nil || a == nil || a.Kind != "download" || a.Bytes != int64(len(fixture.DownloadReportBody)) || a.SHA256 != hex.EncodeToString(sum[:]) {
		t.Fatalf("result %+v artifact %+v", res, a)
	}
	if res.SuggestedFilename != fixture.DownloadReportName || res.URL != site.URL+"/download/report" || res.Tab != "t1" {
		t.Fatalf("result %+v: want %s from %s/download/report (no query)", res, fixture.DownloadReportName, site.URL)
	}
	path := filepath.Join(store.Root(), a.Path)
	data, err := os.ReadFile(path)
	if err != nil || string(data) != fixture.DownloadReportBody {
		t.Fatalf("stored download %q, %v", data, err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("stored download mode %v, %v; want 0600", fi.Mode(), err)
	}
	dirs, files := downloadDirs(t, tmp)
	if len(dirs) != 1 || len(files) != 0 {
		t.Fatalf("worker download directories %v holding %v; want one, empty once the file is kept", dirs, files)
	}
	if fi, err := os.Stat(dirs[0]); err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("download directory mode %v, %v; want 0700", fi.Mode(), err)
	}

	kept := runFiles(store)
	_, err = transport.Dispatch(bg, rt, transport.Download{Target: transport.Target{Role: "link", Name: transport.Match("Full archive")}})
	// Cancelled as it streamed: not read whole by the worker, nor refused only by the store.
	if oe := transport.AsOperationError("", err); oe == nil || oe.Code != transport.CodeArtifactTooLarge || oe.Operation != transport.OpDownload || !strings.Contains(oe.Message, "cancelled") {
		t.Fatalf("download over the limit: %v, want artifact_too_large, cancelled", err)
	}
	if after := runFiles(store); len(after) != len(kept) {
		t.Fatalf("a download over the limit left a file in the store: %v, then %v", kept, after)
	}
	if _, files := downloadDirs(t, tmp); len(files) != 0 {
		t.Fatalf("a download over the limit left %v in the worker's download directory", files)
	}

	// Outside a download call the browser's own behaviour is back: a download an act starts
	// is not saved. The download call after it waits for its own file, by which time the
	// act's (a few bytes) would long have been written.
	if _, err := transport.Dispatch(bg, rt, transport.Act{Action: transport.ActClick, Target: transport.Target{Role: "link", Name: transport.Match("Monthly report")}}); err != nil {
		t.Fatal(err)
	}
	if _, err := transport.Dispatch(bg, rt, transport.Download{Target: transport.Target{Role: "link", Name: transport.Match("Monthly report")}}); err != nil {
		t.Fatal(err)
	}
	if _, files := downloadDirs(t, tmp); len(files) != 0 {
		t.Fatalf("a download an act started was saved in the worker's download directory: %v", files)
	}

	if err := rt.Close(); err != nil {
		t.Fatal(err)
	}
	if dirs, _ := downloadDirs(t, tmp); len(dirs) != 0 {
		t.Fatalf("the session closed and left its download directory %v", dirs)
	}
}

// TestDownloadOffOriginRefused: a link to a download on an origin outside the policy fails
// egress_denied; the other origin never sees the request and nothing is kept.
func TestDownloadOffOriginRefused(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	canary := runtimetest.NewCanary()
	defer canary.Close()
	tmp := t.TempDir()
	rt, store := openDownloads(t, tmp, site.URL)
	if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + "/download/page?to=" + canary.URL}); err != nil {
		t.Fatal(err)
	}
	_, err := transport.Dispatch(bg, rt, transport.Download{Target: transport.Target{Role: "link", Name: transport.Match("Offsite report")}})
	oe := transport.AsOperationError("", err)
	if oe == nil || oe.Code != transport.CodeEgressDenied || len(oe.Blocked) == 0 || oe.Blocked[0].Origin != canary.URL {
		t.Fatalf("download from another origin: %v, want egress_denied naming %s", err, canary.URL)
	}
	if canary.Hits() != 0 {
		t.Fatalf("the other origin was reached: %v", canary.Paths())
	}
	if kept := runFiles(store); len(kept) != 0 {
		t.Fatalf("a refused download left %v in the store", kept)
	}
	if _, files := downloadDirs(t, tmp); len(files) != 0 {
		t.Fatalf("a refused download left %v in the worker's download directory", files)
	}
}

// TestDownloadThatNeverBegins: a click that starts no download fails timeout within the
// call's timeoutMs, the click reported as possibly having changed the page.
func TestDownloadThatNeverBegins(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	rt, _ := openDownloads(t, t.TempDir(), site.URL)
	if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + "/download/page"}); err != nil {
		t.Fatal(err)
	}
	_, err := transport.Dispatch(bg, rt, transport.Download{Target: transport.Target{Role: "button", Name: transport.Match("Does nothing")}, TimeoutMs: 1500})
	if oe := transport.AsOperationError("", err); oe == nil || oe.Code != transport.CodeTimeout || oe.MutationState != transport.Unknown || !strings.Contains(oe.Message, "no download began") {
		t.Fatalf("a click that downloads nothing: %v, want timeout", err)
	}
}

// TestDownloadNeedsAStore: a session without an artifact store refuses download before the
// page is touched.
func TestDownloadNeedsAStore(t *testing.T) {
	t.Parallel()
	site := runtimetest.Fixture()
	defer site.Close()
	rt := runtimetest.Open(t, site.URL)
	if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + "/download/page"}); err != nil {
		t.Fatal(err)
	}
	_, err := transport.Dispatch(bg, rt, transport.Download{Target: transport.Target{Role: "link", Name: transport.Match("Monthly report")}})
	oe := transport.AsOperationError("", err)
	if oe == nil || oe.Code != transport.CodeInvalidRequest || oe.MutationState != transport.NotAttempted || !strings.Contains(oe.Message, "no artifact store") {
		t.Fatalf("download without a store: %v, want invalid_request", err)
	}
}
