package runtime_test

import (
	"strings"
	"testing"
	"time"

	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/transport"
)

// TestCaptureEvidenceBudgetFloor: captureEvidence's budgetMs below the screenshot budget's
// 2 s floor is raised to it, not used as given. On a page whose main thread spins, the parts
// that need it time out, and their messages name the budget the worker really used.
func TestCaptureEvidenceBudgetFloor(t *testing.T) {
	t.Parallel()
	site := runtimetest.Fixture()
	defer site.Close()
	rt, _ := openWithEvidence(t, site.URL, nil)
	// As in TestFailureEvidenceHungPage: the spin starts 2 s after load, after the navigation.
	if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + "/hang?after=2000"}); err != nil {
		t.Fatal(err)
	}
	time.Sleep(2500 * time.Millisecond)
	res, err := transport.Dispatch(bg, rt, transport.CaptureEvidence{RunID: "run-1", Operation: transport.OpObserve, BudgetMs: 500})
	if err != nil {
		t.Fatal(err)
	}
	timedOut := 0
	for _, u := range res.Unavailable {
		if u.Code != transport.CodeTimeout {
			continue
		}
		timedOut++
		if !strings.Contains(u.Message, "(2s)") {
			t.Errorf("%s: %q: the capture did not get the 2 s floor", u.Part, u.Message)
		}
	}
	if timedOut == 0 {
		t.Fatalf("no part timed out on a hung page: artifacts %+v unavailable %+v", res.Artifacts, res.Unavailable)
	}
}
