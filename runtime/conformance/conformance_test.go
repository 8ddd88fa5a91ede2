package conformance_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/fastbrowser/fastbrowser/artifacts"
	"github.com/fastbrowser/fastbrowser/runtime/conformance"
	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/transport"
)

// run runs the suite with the given worker command line and returns the report and output.
func run(t *testing.T, path string, args []string) (*conformance.Report, string) {
	t.Helper()
	var out bytes.Buffer
	rep, err := conformance.Run(context.Background(), conformance.Options{WorkerPath: path, WorkerArgs: args, Out: &out})
	if err != nil {
		t.Fatalf("Run: %v\n%s", err, out.String())
	}
	return rep, out.String()
}

func failed(rep *conformance.Report) []string {
	var names []string
	for _, c := range rep.Checks {
		if c.Status != conformance.StatusPass {
			names = append(names, c.Name)
		}
	}
	return names
}

// TestSuitePassesAgainstOurWorker is acceptance 4's first half: every check passes against
// `fastbrowser worker`, one PASS line each, then the summary.
func TestSuitePassesAgainstOurWorker(t *testing.T) {
	t.Parallel()
	bin, err := runtimetest.Binary()
	if err != nil {
		t.Fatal(err)
	}
	rep, out := run(t, bin, []string{"worker"})
	if !rep.OK() || len(rep.Checks) != len(conformance.Names()) {
		t.Fatalf("failed %v\n%s", failed(rep), out)
	}
	for _, name := range conformance.Names() {
		if !strings.Contains(out, "PASS "+name+"\n") {
			t.Errorf("no PASS line for %s:\n%s", name, out)
		}
	}
	if !strings.HasSuffix(out, "\n13 passed, 0 failed\n") {
		t.Errorf("no summary line:\n%s", out)
	}
}

// TestSuiteFailsBrokenWorkers is acceptance 4's second half: each deliberately broken worker
// fails exactly the checks that test what it breaks, naming them, and every other check
// still passes. A worker that leaks the typed secret into its receipt fails
// masked-value-absent; one that answers a refused navigation as a success fails every check
// whose denial reaches the worker through a redirect (the direct off-origin navigate is
// refused by the runtime before any worker hears of it); one that reports a login page as
// normal fails handoff-ends-batch; one that drops observe's budgets fails page-text-budgets;
// one that reloads the page before every read (keeping no state between batches) fails
// one-context-three-batches.
func TestSuiteFailsBrokenWorkers(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		mode string
		fail []string
	}{
		{"leak-receipt", []string{conformance.CheckMaskedValue}},
		{"ignore-denial", []string{conformance.CheckRedirectDenied, conformance.CheckEgressPostures, conformance.CheckBindingNarrowing}},
		{"misclassify-login", []string{conformance.CheckHandoffEndsBatch}},
		{"ignore-budgets", []string{conformance.CheckPageTextBudgets}},
		{"reload-each-read", []string{conformance.CheckOneContext}},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			t.Parallel()
			path, args, err := runtimetest.BrokenWorker(tc.mode)
			if err != nil {
				t.Fatal(err)
			}
			rep, out := run(t, path, args)
			requireFailed(t, rep, out, tc.fail)
		})
	}
}

// TestSuiteFailsUnfaithfulAssetStore: evidence whose asset does not read back as the bytes
// its sha256 names (a host store handing back other bytes: fault injected through
// ReadAsset) fails evidence-without-bytes alone.
func TestSuiteFailsUnfaithfulAssetStore(t *testing.T) {
	t.Parallel()
	bin, err := runtimetest.Binary()
	if err != nil {
		t.Fatal(err)
	}
	store, err := artifacts.Open(t.TempDir(), "conformance-test")
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	var out bytes.Buffer
	rep, err := conformance.Run(context.Background(), conformance.Options{WorkerPath: bin, WorkerArgs: []string{"worker"}, Out: &out, Store: store,
		ReadAsset: func(a transport.ArtifactMeta) ([]byte, error) {
			b, err := os.ReadFile(filepath.Join(store.Root(), a.Path))
			if err == nil && len(b) > 0 {
				b[len(b)-1] ^= 0xff
			}
			return b, err
		},
	})
	if err != nil {
		t.Fatalf("Run: %v\n%s", err, out.String())
	}
	requireFailed(t, rep, out.String(), []string{conformance.CheckEvidenceNoBytes})
}

// TestSuiteFailsHostThatIgnoresOwnership: a host that answers another task's request in a
// session as if its owner had sent it (fault injected through WrapHost) fails
// task-ownership-refusals alone. Only that check calls a session as a task that does not
// own it; every other request names its owner, so the fault changes nothing for them.
func TestSuiteFailsHostThatIgnoresOwnership(t *testing.T) {
	t.Parallel()
	bin, err := runtimetest.Binary()
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	rep, err := conformance.Run(context.Background(), conformance.Options{WorkerPath: bin, WorkerArgs: []string{"worker"}, Out: &out,
		WrapHost: func(h conformance.Host) conformance.Host {
			return &ownershipBlindHost{next: h, owners: map[string]string{}}
		},
	})
	if err != nil {
		t.Fatalf("Run: %v\n%s", err, out.String())
	}
	requireFailed(t, rep, out.String(), []string{conformance.CheckTaskOwnership})
	if !strings.Contains(out.String(), "FAIL "+conformance.CheckTaskOwnership+": another task's read of the session: got success, want session_not_owned") {
		t.Errorf("the failure does not say which refusal was missing:\n%s", out.String())
	}
}

// ownershipBlindHost is a host fault: it remembers which task opened each session and
// passes every request in a session on as that task's, so no task is ever refused another
// task's session.
type ownershipBlindHost struct {
	next   conformance.Host
	mu     sync.Mutex
	owners map[string]string // session id → the task that opened it
}

func (h *ownershipBlindHost) Handle(ctx context.Context, op transport.Operation, octx *transport.OperationContext) (transport.Result, error) {
	if o := transport.OwnerOf(ctx); o.Session != "" {
		h.mu.Lock()
		task, ok := h.owners[o.Session]
		h.mu.Unlock()
		if ok {
			ctx = transport.WithOwner(ctx, transport.Owner{Session: o.Session, Task: task})
		}
	}
	res, err := h.next.Handle(ctx, op, octx)
	if opened, ok := res.(*transport.OpenSessionResult); ok && err == nil {
		h.mu.Lock()
		h.owners[opened.Session] = opened.Task
		h.mu.Unlock()
	}
	return res, err
}

// requireFailed: exactly the checks in want failed, each on its FAIL line, and the summary
// counts them.
func requireFailed(t *testing.T, rep *conformance.Report, out string, want []string) {
	t.Helper()
	if got := failed(rep); !slices.Equal(got, want) {
		t.Fatalf("failed checks %v, want %v\n%s", got, want, out)
	}
	for _, name := range want {
		if !strings.Contains(out, "FAIL "+name+": ") {
			t.Errorf("no FAIL line for %s:\n%s", name, out)
		}
	}
	summary := fmt.Sprintf("\n%d passed, %d failed\n", len(conformance.Names())-len(want), len(want))
	if !strings.HasSuffix(out, summary) || rep.OK() {
		t.Fatalf("want the summary %q:\n%s", summary, out)
	}
}

// TestSuiteWithFixtureURL: given a fixture site the caller runs (here the embedded one on
// its own server), the suite uses it, and its policy allows that origin alone.
func TestSuiteWithFixtureURL(t *testing.T) {
	t.Parallel()
	site := runtimetest.Fixture()
	defer site.Close()
	bin, err := runtimetest.Binary()
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	rep, err := conformance.Run(context.Background(), conformance.Options{WorkerPath: bin, WorkerArgs: []string{"worker"}, FixtureURL: site.URL + "/", Out: &out})
	if err != nil || !rep.OK() || rep.Fixture != site.URL {
		t.Fatalf("Run: %v, fixture %q, failed %v\n%s", err, rep.Fixture, failed(rep), out.String())
	}
}

// TestSuiteRefusesBadFixtureURL: a fixture URL that is not http(s) stops the run before
// anything starts, reported as the failed check "open".
func TestSuiteRefusesBadFixtureURL(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	rep, err := conformance.Run(context.Background(), conformance.Options{FixtureURL: "file:///etc", Out: &out})
	if err == nil || rep.OK() || len(rep.Checks) != 1 || rep.Checks[0].Name != "open" || !strings.HasSuffix(out.String(), "0 passed, 1 failed\n") {
		t.Fatalf("err %v report %+v\n%s", err, rep, out.String())
	}
}

// TestSuiteWorkerThatNeverStarts: a worker that exits before its ready frame fails "open";
// the browser the suite launched is stopped and its temporary store removed all the same
// (TestMain fails the package if a browser, worker or profile outlives the tests). Not
// parallel: it looks for the suite's temporary directories while no other run has one.
func TestSuiteWorkerThatNeverStarts(t *testing.T) {
	var out bytes.Buffer
	rep, err := conformance.Run(context.Background(), conformance.Options{WorkerPath: "/bin/false", Out: &out})
	if err == nil || len(rep.Checks) != 1 || rep.Checks[0].Name != "open" || !strings.Contains(rep.Checks[0].Message, "could not be opened") {
		t.Fatalf("err %v report %+v\n%s", err, rep, out.String())
	}
	left, _ := filepath.Glob(filepath.Join(os.TempDir(), "fastbrowser-conformance-*"))
	if len(left) > 0 {
		t.Fatalf("temporary directories left: %v", left)
	}
}
