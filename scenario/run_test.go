package scenario

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/runtime"
	"github.com/fastbrowser/fastbrowser/runtime/process/proctest"
	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/transport"
)

// freeURL returns an http URL on a loopback port nothing listens on.
func freeURL(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return "http://" + addr
}

func load(t *testing.T, doc map[string]any) *Loaded {
	t.Helper()
	data, _ := json.Marshal(doc)
	l, err := Parse(data)
	if err != nil {
		t.Fatalf("parse: %v\n%s", err, data)
	}
	l.Path, l.Dir = "test.json", t.TempDir()
	return l
}

// countingEnv opens real sessions in the shared browser and counts them.
func countingEnv(t *testing.T, opened *int) Env {
	return Env{Open: func(ctx context.Context, spec SessionSpec) (Session, error) {
		*opened++
		b, err := runtimetest.Browser()
		if err != nil {
			t.Error(err) // Chromium missing: say so, not only "internal error" in the report
			return nil, err
		}
		bin, err := runtimetest.Binary()
		if err != nil {
			return nil, err
		}
		return runtime.Open(ctx, runtime.Options{CDPURL: b.WebSocketURL(), WorkerPath: bin, WorkerArgs: []string{"worker"}, AllowedOrigins: spec.Origins, Subresources: spec.Subresources, ServiceWorkers: spec.ServiceWorkers})
	}}
}

// TestReadinessNeverSucceeds is acceptance 5: the scenario errors with fixture_not_ready, no
// browser session is opened, and the server's whole process group is gone afterwards.
func TestReadinessNeverSucceeds(t *testing.T) {
	dir := t.TempDir()
	pids := filepath.Join(dir, "pids")
	base := freeURL(t)
	// The readiness budget leaves a loaded machine room to run the shell that writes the
	// pids before the wait ends it.
	l := load(t, map[string]any{
		"version": 1, "id": "never-ready",
		"fixture": map[string]any{"baseUrl": base, "server": map[string]any{
			"mode":      "managed",
			"start":     map[string]any{"command": "/bin/sh", "args": []string{"-c", "sleep 1000 & echo $$ $! > " + pids + "; wait"}},
			"readiness": map[string]any{"url": base + "/health", "timeoutMs": 2000},
		}},
		"operations": []any{map[string]any{"op": "navigate", "request": map[string]any{"url": "/"}}},
	})
	opened := 0
	rep := Run(context.Background(), l, countingEnv(t, &opened))
	if rep.Status != StatusError || rep.Error == nil || rep.Error.Code != transport.CodeFixtureNotReady {
		t.Fatalf("report %+v error %+v", rep, rep.Error)
	}
	if opened != 0 {
		t.Fatal("a browser session was opened although the fixture never became ready")
	}
	if rep.Operations[0].Status != StatusSkipped {
		t.Fatalf("operation ran: %+v", rep.Operations[0])
	}
	data, err := os.ReadFile(pids)
	if err != nil {
		t.Fatalf("the server never started: %v", err)
	}
	for _, f := range strings.Fields(string(data)) {
		pid, _ := strconv.Atoi(f)
		if runtimetest.PidAlive(pid) {
			t.Errorf("server process %d (or its child) survived", pid)
		}
	}
	if got := eventNames(rep); got != "server.start:ok server.ready:failed server.stop:ok" {
		t.Errorf("events %s", got)
	}
}

func eventNames(rep ScenarioReport) string {
	var s []string
	for _, e := range rep.Events {
		s = append(s, e.Kind+"."+e.Name+":"+e.Status)
	}
	return strings.Join(s, " ")
}

func TestServerExitingEarlyIsNotReady(t *testing.T) {
	base := freeURL(t)
	// The longest readiness budget: a run that waited it out would say the server did not
	// answer in time; one that noticed the exit says it exited.
	readiness := budgets.FixtureReadiness().Ceiling
	l := load(t, map[string]any{
		"version": 1, "id": "exits",
		"fixture": map[string]any{"baseUrl": base, "server": map[string]any{
			"mode": "managed", "start": map[string]any{"command": "/bin/false"},
			"readiness": map[string]any{"url": base + "/health", "timeoutMs": readiness.Milliseconds()},
		}},
		"operations": []any{map[string]any{"op": "read"}},
	})
	opened := 0
	rep := Run(context.Background(), l, countingEnv(t, &opened))
	if rep.Error == nil || rep.Error.Code != transport.CodeFixtureNotReady || !strings.Contains(rep.Error.Message, "exited") {
		t.Fatalf("error %+v", rep.Error)
	}
	if opened != 0 {
		t.Fatalf("opened %d sessions for a dead server", opened)
	}
}

func TestPortInUseUnlessReused(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	doc := func(reuse bool) map[string]any {
		return map[string]any{
			"version": 1, "id": "in-use",
			"fixture": map[string]any{"baseUrl": site.URL, "server": map[string]any{
				"mode": "managed", "start": map[string]any{"command": "/bin/false"},
				"readiness": map[string]any{"url": site.URL + "/health"}, "reuseExisting": reuse,
			}},
			"operations": []any{map[string]any{"op": "assert", "request": map[string]any{"kind": "title", "value": "Fastbrowser Fixture"}},
				map[string]any{"op": "navigate", "request": map[string]any{"url": "/"}}},
		}
	}
	opened := 0
	rep := Run(context.Background(), load(t, doc(false)), countingEnv(t, &opened))
	if rep.Error == nil || rep.Error.Code != transport.CodeFixturePortInUse || opened != 0 {
		t.Fatalf("port in use: %+v %+v", rep, rep.Error)
	}
	rep = Run(context.Background(), load(t, doc(true)), countingEnv(t, &opened))
	// Reused: the scenario runs; its first assert fails (the tab is blank), so later ops skip.
	if rep.Status != StatusFailed || rep.Operations[0].Error.Code != transport.CodeAssertionFailed || rep.Operations[1].Status != StatusSkipped {
		t.Fatalf("reused server: %+v", rep)
	}
}

// TestLifecycleOrder checks hooks and server events in DESIGN.md's order, also when an
// operation fails, and that the cleanup hook runs while the server still answers.
func TestLifecycleOrder(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	dir := t.TempDir()
	log := filepath.Join(dir, "log")
	hook := func(name string) map[string]any {
		return map[string]any{"command": "/bin/sh", "args": []string{"-c", fmt.Sprintf("echo %s >> %s", name, log)}}
	}
	cleanup := map[string]any{"command": "/bin/sh", "args": []string{"-c", fmt.Sprintf(
		"if curl -sf %s/health >/dev/null 2>&1 || wget -qO- %s/health >/dev/null 2>&1; then echo cleanup-server-up >> %s; else echo cleanup >> %s; fi", site.URL, site.URL, log, log)}}
	l := load(t, map[string]any{
		"version": 1, "id": "order",
		"fixture": map[string]any{"baseUrl": site.URL, "server": map[string]any{
			"mode": "external", "readiness": map[string]any{"url": site.URL + "/health"}}},
		"hooks": map[string]any{"setup": hook("setup"), "reset": hook("reset"), "cleanup": cleanup},
		"operations": []any{
			map[string]any{"id": "go", "op": "navigate", "request": map[string]any{"url": "/about"}},
			map[string]any{"id": "wrong", "op": "assert", "request": map[string]any{"kind": "title", "value": "Nope", "wait": "none"}},
			map[string]any{"id": "never", "op": "read"},
		},
	})
	opened := 0
	rep := Run(context.Background(), l, countingEnv(t, &opened))
	if rep.Status != StatusFailed {
		t.Fatalf("status %s (%+v)", rep.Status, rep.Error)
	}
	if got, want := eventNames(rep), "hook.setup:ok server.ready:ok hook.reset:ok runtime.open:ok runtime.close:ok hook.cleanup:ok"; got != want {
		t.Fatalf("events\n got %s\nwant %s", got, want)
	}
	ops := rep.Operations
	if ops[0].Status != StatusPassed || ops[1].Status != StatusFailed || ops[2].Status != StatusSkipped {
		t.Fatalf("operation statuses %+v", ops)
	}
	e := ops[1].Error
	if e.Code != transport.CodeAssertionFailed || e.Phase != transport.PhaseVerify || e.Retry == "" || e.MutationState != transport.NotAttempted || ops[1].Posture != transport.PostureFailed {
		t.Fatalf("failed operation %+v", e)
	}
	data, _ := os.ReadFile(log)
	lines := strings.Fields(string(data))
	if len(lines) != 3 || lines[0] != "setup" || lines[1] != "reset" || !strings.HasPrefix(lines[2], "cleanup") {
		t.Fatalf("hook log %q", data)
	}
}

func TestFailingHookStopsBeforeOperations(t *testing.T) {
	l := load(t, map[string]any{
		"version": 1, "id": "hookfail",
		"hooks":      map[string]any{"setup": map[string]any{"command": "/bin/sh", "args": []string{"-c", "exit 3"}}},
		"operations": []any{map[string]any{"op": "read"}},
	})
	opened := 0
	rep := Run(context.Background(), l, countingEnv(t, &opened))
	if rep.Error == nil || rep.Error.Code != transport.CodeHookFailed || opened != 0 || !strings.Contains(rep.Error.Message, "exit code 3") {
		t.Fatalf("%+v %+v", rep, rep.Error)
	}
}

func TestTabReferencesResolve(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	l := load(t, map[string]any{
		"version": 1, "id": "tabs",
		"fixture": map[string]any{"baseUrl": site.URL},
		"operations": []any{
			map[string]any{"op": "read", "request": map[string]any{"tab": map[string]any{"source": "initial", "target": "selected"}}},
			map[string]any{"id": "nav", "op": "navigate", "request": map[string]any{"url": "/tabs"}},
			map[string]any{"id": "list", "op": "listTabs", "request": map[string]any{"select": map[string]any{"kind": "origin", "origin": site.URL}}},
			map[string]any{"id": "sel", "op": "selectTab", "request": map[string]any{"tab": map[string]any{"source": "operation", "operation": map[string]any{"id": "list"}, "result": "listedTab", "index": 0}}},
			map[string]any{"op": "assert", "request": map[string]any{"tab": map[string]any{"source": "operation", "operation": map[string]any{"index": 3}, "result": "selectedTab"}, "kind": "title", "value": "Tabs"}},
		},
	})
	opened := 0
	rep := Run(context.Background(), l, countingEnv(t, &opened))
	if rep.Status != StatusPassed {
		t.Fatalf("status %s: %+v %+v", rep.Status, rep.Operations, rep.Error)
	}
	var sel transport.SelectTabResult
	if err := json.Unmarshal(rep.Operations[3].Result, &sel); err != nil || sel.SelectedTab != "t1" {
		t.Fatalf("selected %s", rep.Operations[3].Result)
	}
}

func TestScenarioBudgetEndsRun(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	// The page answers after 15 s; the navigation budget is 10 s; the scenario budget (6 s,
	// roomy enough that a loaded machine still opens the session inside it) must end the
	// navigation first.
	l := load(t, map[string]any{
		"version": 1, "id": "budget", "budgets": map[string]any{"timeoutMs": 6000},
		"fixture":    map[string]any{"baseUrl": site.URL},
		"operations": []any{map[string]any{"op": "navigate", "request": map[string]any{"url": "/slow?ms=15000"}}, map[string]any{"op": "read"}},
	})
	opened := 0
	rep := Run(context.Background(), l, countingEnv(t, &opened))
	// A budget end is the scenario's error (status error, as for any failure outside the
	// operations), naming the budget and its value; the operation it cut short failed.
	if rep.Status != StatusError || rep.Operations[0].Status != StatusFailed || rep.Operations[0].Error == nil || rep.Operations[1].Status != StatusSkipped {
		t.Fatalf("%+v", rep)
	}
	if c := rep.Operations[0].Error.Code; c != transport.CodeTimeout {
		t.Fatalf("code %s", c)
	}
	if e := rep.Error; e == nil || e.Code != transport.CodeTimeout || e.Message != "the scenario budget (timeoutMs 6000) ended during operations[0] (navigate)" {
		t.Fatalf("scenario error %+v", e)
	}
	if d := rep.Operations[0].DurationMs; d >= budgets.Navigation().Default.Milliseconds() {
		t.Fatalf("the navigation ran %d ms: its own budget ended it, not the 6 s scenario budget", d)
	}
}

// TestStepPostconditionNeverHolds is acceptance 4 of the page model: postcondition_failed,
// unknown, and exactly one click reached the page.
func TestStepPostconditionNeverHolds(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	l := load(t, map[string]any{
		"version": 1, "id": "never-holds",
		"fixture": map[string]any{"baseUrl": site.URL},
		"operations": []any{
			map[string]any{"op": "navigate", "request": map[string]any{"url": "/replace"}},
			map[string]any{"id": "noop", "op": "step", "step": map[string]any{"instruction": "Do nothing", "action": "click",
				"postcondition": map[string]any{"kind": "text", "value": "This never appears"}}},
			map[string]any{"op": "read"},
		},
	})
	opened := 0
	rep := Run(context.Background(), l, countingEnv(t, &opened))
	if rep.Status != StatusFailed || rep.Operations[2].Status != StatusSkipped {
		t.Fatalf("report %+v", rep)
	}
	e := rep.Operations[1].Error
	if e == nil || e.Code != transport.CodePostconditionFailed || e.MutationState != transport.Unknown || e.Phase != transport.PhaseVerify ||
		e.Retry != transport.RetryUnsafe || e.Operation != "step" {
		t.Fatalf("step error %+v", e)
	}
	if want := `text "This never appears" did not appear within the action-verification budget (3s) after click on `; !strings.HasPrefix(e.Message, want) {
		t.Errorf("message %q, want it to start %q", e.Message, want)
	}
	// The page reports the click with a fire-and-forget fetch: wait for it to land.
	var n int
	proctest.PollUntil(10*time.Second, func() bool { n = runtimetest.Clicks(t, site.URL)["nothing"]; return n != 0 })
	if n != 1 {
		t.Fatalf("the page saw %d clicks, want exactly 1", n)
	}
}

func TestStepPasses(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	l := load(t, map[string]any{
		"version": 1, "id": "step-ok",
		"fixture": map[string]any{"baseUrl": site.URL},
		"operations": []any{
			map[string]any{"op": "navigate", "request": map[string]any{"url": "/replace"}},
			map[string]any{"op": "step", "step": map[string]any{"instruction": "continue", "action": "click",
				"postcondition": map[string]any{"kind": "text", "value": "Step complete"}}},
		},
	})
	opened := 0
	rep := Run(context.Background(), l, countingEnv(t, &opened))
	if rep.Status != StatusPassed {
		t.Fatalf("report %+v %+v", rep.Operations, rep.Error)
	}
	var sr StepResult
	if err := json.Unmarshal(rep.Operations[1].Result, &sr); err != nil || sr.MatchedBy != "caseInsensitive" || sr.MutationState != transport.Verified || sr.Receipt.Name != "Continue" {
		t.Fatalf("step result %s", rep.Operations[1].Result)
	}
	if n := runtimetest.Clicks(t, site.URL)["replace"]; n != 1 {
		t.Fatalf("clicks %d", n)
	}
}

// TestDialogsInReport: the dialogs each operation answered are on its report entry and in
// its result or error, for an act that accepts, a step that accepts a prompt with a text, and
// a navigate a dismissed beforeunload dialog stopped (the scenario fails there, at once).
func TestDialogsInReport(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	l := load(t, map[string]any{
		"version": 1, "id": "dialogs",
		"fixture": map[string]any{"baseUrl": site.URL},
		"operations": []any{
			map[string]any{"op": "navigate", "request": map[string]any{"url": "/dialogs"}},
			map[string]any{"op": "act", "request": map[string]any{"action": "click", "target": map[string]any{"role": "button", "name": "Confirm"}, "dialog": "accept"}},
			map[string]any{"op": "step", "step": map[string]any{"instruction": "Prompt", "action": "click", "dialog": "accept", "promptText": "Ada",
				"postcondition": map[string]any{"kind": "text", "value": "prompt returned text Ada"}}},
			map[string]any{"op": "navigate", "request": map[string]any{"url": "/dialogs/leave"}},
			map[string]any{"op": "act", "request": map[string]any{"action": "click", "target": map[string]any{"role": "button", "name": "Touch"}}},
			map[string]any{"op": "navigate", "request": map[string]any{"url": "/about"}},
			map[string]any{"op": "read"},
		},
	})
	opened := 0
	rep := Run(context.Background(), l, countingEnv(t, &opened))
	ops := rep.Operations
	if rep.Status != StatusFailed || ops[5].Status != StatusFailed || ops[6].Status != StatusSkipped {
		t.Fatalf("status %s, operations %+v", rep.Status, ops)
	}
	want := map[int]transport.Dialog{
		1: {Type: "confirm", Message: "Proceed with the confirm?", Action: transport.DialogAccepted},
		2: {Type: "prompt", Message: "What is your name?", Action: transport.DialogAccepted},
		5: {Type: "beforeunload", Action: transport.DialogDismissed},
	}
	for i, op := range ops {
		d, ok := want[i]
		if !ok {
			if len(op.Dialogs) != 0 {
				t.Errorf("operations[%d] dialogs %+v", i, op.Dialogs)
			}
			continue
		}
		if len(op.Dialogs) != 1 || op.Dialogs[0] != d {
			t.Errorf("operations[%d] dialogs %+v, want %+v", i, op.Dialogs, d)
		}
	}
	var sr StepResult
	if err := json.Unmarshal(ops[2].Result, &sr); err != nil || len(sr.Dialogs) != 1 || sr.MutationState != transport.Verified {
		t.Errorf("step result %s", ops[2].Result)
	}
	if e := ops[5].Error; e == nil || e.Code != transport.CodeNavigationFailed || len(e.Dialogs) != 1 {
		t.Errorf("navigate error %+v", e)
	}
}

func TestStepAmbiguousIsRefused(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	l := load(t, map[string]any{
		"version": 1, "id": "step-ambiguous",
		"fixture": map[string]any{"baseUrl": site.URL},
		"operations": []any{
			map[string]any{"op": "navigate", "request": map[string]any{"url": "/delete"}},
			map[string]any{"op": "step", "step": map[string]any{"instruction": "Delete", "action": "click",
				"postcondition": map[string]any{"kind": "text", "value": "gone"}}},
		},
	})
	opened := 0
	rep := Run(context.Background(), l, countingEnv(t, &opened))
	e := rep.Operations[1].Error
	if e == nil || e.Code != transport.CodeElementAmbiguous || e.MutationState != transport.NotAttempted {
		t.Fatalf("error %+v", e)
	}
	if n := runtimetest.Clicks(t, site.URL)["delete"]; n != 0 {
		t.Fatalf("an ambiguous step clicked %d times", n)
	}
}

func TestNarrowingInFiles(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	canary := runtimetest.NewCanary()
	defer canary.Close()
	l := load(t, map[string]any{
		"version": 1, "id": "narrowing",
		"fixture":        map[string]any{"baseUrl": site.URL},
		"allowedOrigins": []string{site.URL, canary.URL},
		"operations": []any{
			map[string]any{"id": "narrow", "op": "narrowOriginPolicy", "request": map[string]any{"origins": []string{site.URL}}},
			map[string]any{"op": "navigate", "request": map[string]any{"url": "/about"}, "context": map[string]any{"operation": map[string]any{"id": "narrow"}}},
			map[string]any{"op": "navigate", "request": map[string]any{"url": canary.URL + "/"}},
			map[string]any{"op": "navigate", "request": map[string]any{"url": canary.URL + "/x"}, "context": map[string]any{"operation": map[string]any{"index": 0}}},
		},
	})
	opened := 0
	rep := Run(context.Background(), l, countingEnv(t, &opened))
	ops := rep.Operations
	if ops[0].Status != StatusPassed || ops[1].Status != StatusPassed || ops[2].Status != StatusPassed || ops[3].Status != StatusFailed {
		t.Fatalf("statuses %+v", ops)
	}
	if ops[3].Error.Code != transport.CodeOriginDenied || ops[3].Error.MutationState != transport.NotAttempted {
		t.Fatalf("narrowed navigation %+v", ops[3].Error)
	}
	if !canary.Saw("/") || canary.Saw("/x") {
		t.Fatalf("the base-policy navigation must reach the canary and the narrowed one must not")
	}
	for _, bad := range []struct{ ops, path string }{
		{`[{"op":"read","context":{"operation":{"id":"n"}}},{"id":"n","op":"narrowOriginPolicy","request":{"origins":["http://a.test"]}}]`, "operations[0].context.operation.id"},
		{`[{"id":"r","op":"read"},{"op":"read","context":{"operation":{"id":"r"}}}]`, "operations[1].context.operation"},
		{`[{"id":"n","op":"narrowOriginPolicy","request":{"origins":["http://a.test"]}},{"op":"narrowOriginPolicy","request":{"origins":["http://a.test"]},"context":{"operation":{"index":0}}}]`, "operations[1].context"},
		{`[{"op":"narrowOriginPolicy","request":{"origins":[]}}]`, "operations[0].request.origins"},
	} {
		_, err := Parse([]byte(`{"version":1,"id":"x","operations":` + bad.ops + `}`))
		var ve *ValidationError
		if !errors.As(err, &ve) || ve.Path != bad.path {
			t.Errorf("%s: %v, want path %s", bad.ops, err, bad.path)
		}
	}
}
