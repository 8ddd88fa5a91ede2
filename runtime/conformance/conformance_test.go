package conformance_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/conformance"
	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
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

// TestSuiteFailsBrokenWorkers is acceptance 4's second half: a worker that leaks the typed
// secret into its receipt fails masked-value-absent, and one that answers a refused
// navigation as a success fails redirect-denied (the direct off-origin navigate is refused by
// the runtime before any worker hears of it, so only the redirect reaches the worker's
// enforcement); every other check still passes.
func TestSuiteFailsBrokenWorkers(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		mode string
		fail string
	}{
		{"leak-receipt", conformance.CheckMaskedValue},
		{"ignore-denial", conformance.CheckRedirectDenied},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			t.Parallel()
			path, args, err := runtimetest.BrokenWorker(tc.mode)
			if err != nil {
				t.Fatal(err)
			}
			rep, out := run(t, path, args)
			if got := failed(rep); !slices.Equal(got, []string{tc.fail}) {
				t.Fatalf("failed checks %v, want [%s]\n%s", got, tc.fail, out)
			}
			if !strings.Contains(out, "FAIL "+tc.fail+": ") || !strings.Contains(out, "\n12 passed, 1 failed\n") || rep.OK() {
				t.Fatalf("output:\n%s", out)
			}
		})
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
