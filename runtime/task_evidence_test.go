package runtime_test

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/fastbrowser/fastbrowser/artifacts"
	"github.com/fastbrowser/fastbrowser/runtime"
	"github.com/fastbrowser/fastbrowser/runtime/model"
	"github.com/fastbrowser/fastbrowser/runtime/model/modeltest"
	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/transport"
)

// TestTaskFailureEvidenceOfItsTab: a task given a tab handle that fails on its own account
// (the model claims success and the page says otherwise) keeps failure evidence of that
// tab. The handle is the session's ("t1"), not the worker's target id: evidence asked for
// it untranslated finds no tab and is only "unavailable".
func TestTaskFailureEvidenceOfItsTab(t *testing.T) {
	site, _ := taskSite(t)
	srv := modeltest.Start(t, modeltest.Step{Tool: "done"})
	cfg := srv.Config(model.ProviderOpenAI, taskAPIEnv)
	store, err := artifacts.Open(filepath.Join(t.TempDir(), "artifacts"), "task-evidence")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	b, err := runtimetest.Browser()
	if err != nil {
		t.Fatal(err)
	}
	rt := runtimetest.OpenWith(t, runtimetest.Options{CDPURL: b.WebSocketURL(), AllowedOrigins: []string{site.URL}, Model: &cfg,
		LookupEnv: func(k string) (string, bool) { return taskAPIKey, k == taskAPIEnv },
		Evidence:  &runtime.EvidenceOptions{Store: store, RunID: "run-1", Owner: "task-evidence", OnFailure: true}})
	nav, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + "/"})
	if err != nil {
		t.Fatal(err)
	}
	q := taskOf("Sign in as alice")
	q.Tab = nav.Tab
	_, err = transport.Dispatch(bg, rt, q)
	var oe *transport.OperationError
	if !errors.As(err, &oe) || oe.Code != transport.CodePostconditionFailed {
		t.Fatalf("err %v, want postcondition_failed", err)
	}
	evidence, unavailable := transport.EvidenceOf(err)
	if len(evidence) == 0 || len(unavailable) != 0 {
		t.Errorf("tab %s: evidence %+v, unavailable %+v; want the tab's evidence", q.Tab, evidence, unavailable)
	}
}
