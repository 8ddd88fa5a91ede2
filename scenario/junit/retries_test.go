package junit

import (
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/artifacts"
	"github.com/fastbrowser/fastbrowser/scenario"
	"github.com/fastbrowser/fastbrowser/scenario/junit/junittest"
	"github.com/fastbrowser/fastbrowser/transport"
)

// attemptFailed is attempt k of "login", failed at its assert with a screenshot in the
// attempt's own directory.
func attemptFailed(k int) scenario.Attempt {
	dir := scenario.AttemptRunDir("20250304T040607Z-abcd", k)
	return scenario.Attempt{Attempt: k, Status: scenario.StatusFailed, DurationMs: 100,
		Events: []scenario.Event{{AtMs: 1, Kind: "hook", Name: "setup", Status: "ok"}},
		Operation: &scenario.OperationReport{Index: 1, ID: "wrong-title", Op: "assert", Status: scenario.StatusFailed,
			Error: &transport.OperationError{Operation: "assert", Phase: transport.PhaseVerify, Code: "assertion_failed",
				Message: "title was Warming up", Retry: transport.RetrySafe, MutationState: "not_attempted"},
			Evidence: []artifacts.Meta{{Kind: "screenshot", Path: "login/" + dir + "/a1.png"}}}}
}

func attemptErrored(k int) scenario.Attempt {
	return scenario.Attempt{Attempt: k, Status: scenario.StatusError, DurationMs: 20,
		Error: &transport.OperationError{Operation: "hook", Phase: transport.PhaseExecute, Code: "hook_failed",
			Message: "setup exited 1", Retry: transport.RetryNever, MutationState: "unknown"}}
}

// retriedScenarios: "flaky" failed, errored, then passed; "login" failed all three attempts.
func retriedScenarios() *scenario.Report {
	rep := fourScenarios()
	flaky := rep.Scenarios[0]
	flaky.ID, flaky.Status = "flaky", scenario.StatusFlaky
	flaky.Attempts = []scenario.Attempt{attemptFailed(1), attemptErrored(2), {Attempt: 3, Status: scenario.StatusPassed, DurationMs: 120}}
	login := loginFailed()
	login.Attempts = []scenario.Attempt{attemptFailed(1), attemptFailed(2), attemptFailed(3)}
	rep.Scenarios = []scenario.ScenarioReport{flaky, login}
	rep.Status = scenario.StatusFailed
	return rep
}

// TestWriteMapsRetriesAsSurefire: a pass on a retry is a passed testcase with a
// <flakyFailure>/<flakyError> per failed attempt; a scenario that failed every attempt is a
// <failure> (its last attempt) with a <rerunFailure> per earlier attempt; both as Maven
// Surefire writes them, valid for the checker, and the totals count flaky as passed.
func TestWriteMapsRetriesAsSurefire(t *testing.T) {
	data := render(t, retriedScenarios())
	got := decode(t, data)
	if got.Tests != 2 || got.Failures != 1 || got.Errors != 0 || len(got.Suites) != 1 {
		t.Fatalf("totals tests=%d failures=%d errors=%d, %d suites\n%s", got.Tests, got.Failures, got.Errors, len(got.Suites), data)
	}
	cases, err := junittest.Cases(data)
	if err != nil || len(cases) != 2 {
		t.Fatalf("%d cases, %v\n%s", len(cases), err, data)
	}
	flaky, login := cases[0], cases[1]
	if flaky.Failure != nil || flaky.Error != nil || len(flaky.RerunFailures)+len(flaky.RerunErrors) != 0 ||
		len(flaky.FlakyFailures) != 1 || len(flaky.FlakyErrors) != 1 {
		t.Fatalf("flaky case %+v", flaky)
	}
	ff, fe := flaky.FlakyFailures[0], flaky.FlakyErrors[0]
	if ff.Message != "attempt 1: assertion_failed: title was Warming up" || ff.Type != "assertion_failed" ||
		!strings.Contains(ff.StackTrace, "operations[1] wrong-title (assert): failed") ||
		!strings.Contains(ff.StackTrace, "evidence: screenshot artifacts/login/20250304T040607Z-abcd/a1.png") ||
		!strings.Contains(ff.SystemOut, "+1ms hook setup ok") {
		t.Errorf("flakyFailure %+v", ff)
	}
	if fe.Message != "attempt 2: hook_failed: setup exited 1" || fe.Type != "hook_failed" || !strings.Contains(fe.StackTrace, "phase: execute") {
		t.Errorf("flakyError %+v", fe)
	}
	if login.Failure == nil || login.Error != nil || len(login.RerunFailures) != 2 || len(login.FlakyFailures)+len(login.FlakyErrors) != 0 {
		t.Fatalf("failed case %+v", login)
	}
	for i, r := range login.RerunFailures {
		want := "artifacts/login/" + scenario.AttemptRunDir("20250304T040607Z-abcd", i+1) + "/a1.png"
		if !strings.HasPrefix(r.Message, "attempt "+string(rune('1'+i))+": assertion_failed") || !strings.Contains(r.StackTrace, want) {
			t.Errorf("rerunFailure %d = %+v, want attempt %d's evidence %s", i, r, i+1, want)
		}
	}
	// A scenario that ran once has no rerun or flaky element.
	plain := render(t, fourScenarios())
	for _, el := range []string{"rerunFailure", "rerunError", "flakyFailure", "flakyError", "stackTrace"} {
		if strings.Contains(string(plain), "<"+el) {
			t.Errorf("a run without retries has <%s>", el)
		}
	}
}

// TestSchemaCheckerSurefireRules proves the checker refuses misplaced rerun and flaky
// elements, so TestWriteMapsRetriesAsSurefire's schema check means something.
func TestSchemaCheckerSurefireRules(t *testing.T) {
	good := string(render(t, retriedScenarios()))
	bad := map[string]func(string) string{
		"flakyFailure on a failed testcase": func(s string) string {
			return strings.Replace(s, "<rerunFailure ", "<flakyFailure message=\"x\" type=\"x\"><stackTrace></stackTrace></flakyFailure><rerunFailure ", 1)
		},
		"rerunFailure on a passed testcase": func(s string) string {
			return strings.Replace(s, "<flakyFailure ", "<rerunFailure type=\"x\"><stackTrace></stackTrace></rerunFailure><flakyFailure ", 1)
		},
		"rerun without stackTrace": func(s string) string {
			i := strings.Index(s, "<rerunFailure ")
			j := strings.Index(s[i:], "</stackTrace>") + i + len("</stackTrace>")
			k := strings.Index(s[i:], "<stackTrace>") + i
			return s[:k] + s[j:]
		},
		"rerun without type": func(s string) string {
			return strings.Replace(s, `<rerunFailure message="attempt 1`, `<rerunFailure x="`, 1)
		},
		"flakyError before flakyFailure": func(s string) string {
			i := strings.Index(s, "<flakyError ")
			j := strings.Index(s, "</flakyError>") + len("</flakyError>")
			fe := s[i:j]
			s = s[:i] + s[j:]
			return strings.Replace(s, "<flakyFailure ", fe+"<flakyFailure ", 1)
		},
		"rerunFailure after system-out": func(s string) string {
			i := strings.Index(s, "<rerunFailure ")
			j := strings.Index(s, "</rerunFailure>") + len("</rerunFailure>")
			r := s[i:j]
			s = s[:i] + s[j:]
			k := strings.LastIndex(s, "</testcase>")
			return s[:k] + r + s[k:]
		},
	}
	for name, mutate := range bad {
		out := mutate(good)
		if out == good {
			t.Fatalf("%s: mutation did not apply", name)
		}
		if err := checkSchema([]byte(out)); err == nil {
			t.Errorf("%s: accepted\n%s", name, out)
		}
	}
}
