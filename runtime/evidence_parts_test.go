package runtime_test

import (
	"slices"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime"
	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/transport"
)

// TestEvidenceParts: captureEvidence with parts gathers only those (no screenshot, so no
// redaction proof, and nothing listed unavailable for the parts not asked for), as does a
// step trace's CaptureTrace; without parts it gathers all four.
func TestEvidenceParts(t *testing.T) {
	t.Parallel()
	site := runtimetest.Fixture()
	defer site.Close()
	caller, _ := openWithEvidence(t, site.URL, nil)
	rt := caller.(*runtime.Runtime)
	if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + "/form"}); err != nil {
		t.Fatal(err)
	}
	res, err := transport.Dispatch(bg, rt, transport.CaptureEvidence{RunID: "parts", Operation: transport.OpAssert,
		Parts: []string{transport.PartNetwork, transport.PartConsole}})
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, a := range res.Artifacts {
		kinds = append(kinds, a.Kind)
	}
	if !slices.Equal(kinds, []string{transport.PartConsole, transport.PartNetwork}) || res.Redaction != nil || len(res.Unavailable) != 0 {
		t.Errorf("parts console and network: artifacts %v, redaction %+v, unavailable %+v", kinds, res.Redaction, res.Unavailable)
	}
	tc, err := rt.CaptureTrace(bg, "", transport.OpAssert, transport.PartConsole)
	if err != nil {
		t.Fatal(err)
	}
	if len(tc.Parts) != 1 || tc.Parts[0].Kind != transport.PartConsole || tc.Redaction != nil || len(tc.Unavailable) != 0 {
		t.Errorf("CaptureTrace(console): %+v", tc)
	}
	tc, err = rt.CaptureTrace(bg, "", transport.OpAct)
	if err != nil {
		t.Fatal(err)
	}
	kinds = nil
	for _, p := range tc.Parts {
		kinds = append(kinds, p.Kind)
	}
	if !slices.Equal(kinds, transport.EvidenceParts) || tc.Redaction == nil || !tc.Redaction.Proven {
		t.Errorf("CaptureTrace(all): parts %v, redaction %+v, unavailable %+v", kinds, tc.Redaction, tc.Unavailable)
	}
}
