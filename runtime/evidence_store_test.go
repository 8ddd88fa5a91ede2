package runtime_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/transport"
)

// TestEvidenceStoreFailureNamesCause: a symlink planted in the artifact store where the
// run's directory goes makes every part of a capture unavailable with a message that says
// why ("symlink refused"), never a bare internal error, and nothing is written through it.
func TestEvidenceStoreFailureNamesCause(t *testing.T) {
	t.Parallel()
	site := runtimetest.Fixture()
	defer site.Close()
	rt, store := openWithEvidence(t, site.URL, nil)
	if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + "/about"}); err != nil {
		t.Fatal(err)
	}
	target := t.TempDir()
	if err := os.Symlink(target, filepath.Join(store.Root(), "evidence-test", "planted")); err != nil {
		t.Fatal(err)
	}
	res, err := transport.Dispatch(bg, rt, transport.CaptureEvidence{RunID: "planted", Operation: transport.OpObserve})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Artifacts) != 0 || len(res.Unavailable) < 3 {
		t.Fatalf("artifacts %+v, unavailable %+v", res.Artifacts, res.Unavailable)
	}
	for _, u := range res.Unavailable {
		if u.Code != transport.CodeInternal || u.Message != "could not be written to the artifact store: symlink refused" {
			t.Errorf("part %s: %s %q, want internal naming the symlink", u.Part, u.Code, u.Message)
		}
		if strings.Contains(u.Message, store.Root()) || strings.Contains(u.Message, target) {
			t.Errorf("part %s: message shows a path: %q", u.Part, u.Message)
		}
	}
	if ents, _ := os.ReadDir(target); len(ents) != 0 {
		t.Errorf("written through the symlink: %v", ents)
	}
}
