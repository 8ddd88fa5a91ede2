package runtime_test

import (
	"testing"
	"time"

	"github.com/mafredri/cdp/protocol/page"

	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/transport"
)

// BenchmarkScreenshot is issue 15's screenshot figure: one `screenshot` operation through
// runtime → transport → worker → CDP (masks placed in every frame and proven, the PNG
// committed to the artifact store) against a bare Page.captureScreenshot by a direct
// mafredri/cdp call on a tab of the same browser showing the same page. The two alternate
// within each iteration; the benchmark reports each path's median, the ratio of the medians
// and both PNGs' sizes (the same page at the same size should give about the same bytes).
// The fixture's /form has a password field, so the runtime's masking has work to do.
func BenchmarkScreenshot(b *testing.B) {
	site := runtimetest.Fixture()
	defer site.Close()
	url := site.URL + "/form"
	rt, _ := openWithEvidence(b, site.URL, nil)
	if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: url}); err != nil {
		b.Fatal(err)
	}
	c, closeTab := directTab(b, url)
	defer closeTab()
	args := page.NewCaptureScreenshotArgs().SetFormat("png")

	viaRuntime := make([]time.Duration, 0, b.N)
	direct := make([]time.Duration, 0, b.N)
	var runtimeBytes, directBytes int
	b.ResetTimer()
	for range b.N {
		t0 := time.Now()
		res, err := transport.Dispatch(bg, rt, transport.Screenshot{})
		if err != nil || res.Artifact == nil || res.Redaction == nil || !res.Redaction.Proven || res.Redaction.Matched == 0 {
			b.Fatalf("screenshot: %+v %v", res, err)
		}
		t1 := time.Now()
		shot, err := c.Page.CaptureScreenshot(bg, args)
		if err != nil || len(shot.Data) == 0 {
			b.Fatalf("captureScreenshot: %v", err)
		}
		viaRuntime, direct = append(viaRuntime, t1.Sub(t0)), append(direct, time.Since(t1))
		runtimeBytes, directBytes = int(res.Artifact.Bytes), len(shot.Data)
	}
	b.StopTimer()
	reportPair(b, viaRuntime, direct)
	b.ReportMetric(float64(runtimeBytes), "runtime-png-bytes")
	b.ReportMetric(float64(directBytes), "direct-png-bytes")
}
