package junit

import (
	"bytes"
	"encoding/xml"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"unicode/utf8"

	"github.com/fastbrowser/fastbrowser/artifacts"
	"github.com/fastbrowser/fastbrowser/scenario"
	"github.com/fastbrowser/fastbrowser/transport"
)

// Decoding targets mirroring the JUnit XSD, independent of the writer's own model.
type xSuites struct {
	XMLName   xml.Name `xml:"testsuites"`
	Name      string   `xml:"name,attr"`
	Tests     int      `xml:"tests,attr"`
	Failures  int      `xml:"failures,attr"`
	Errors    int      `xml:"errors,attr"`
	Skipped   int      `xml:"skipped,attr"`
	Time      string   `xml:"time,attr"`
	Timestamp string   `xml:"timestamp,attr"`
	Suites    []xSuite `xml:"testsuite"`
}

type xSuite struct {
	Name       string  `xml:"name,attr"`
	Tests      int     `xml:"tests,attr"`
	Failures   int     `xml:"failures,attr"`
	Errors     int     `xml:"errors,attr"`
	Skipped    int     `xml:"skipped,attr"`
	Time       string  `xml:"time,attr"`
	Timestamp  string  `xml:"timestamp,attr"`
	Hostname   string  `xml:"hostname,attr"`
	ID         int     `xml:"id,attr"`
	Package    string  `xml:"package,attr"`
	Properties []xProp `xml:"properties>property"`
	Cases      []xCase `xml:"testcase"`
}

type xProp struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type xCase struct {
	Name      string    `xml:"name,attr"`
	Classname string    `xml:"classname,attr"`
	Time      string    `xml:"time,attr"`
	Skipped   *struct{} `xml:"skipped"`
	Error     *xProblem `xml:"error"`
	Failure   *xProblem `xml:"failure"`
	SystemOut string    `xml:"system-out"`
}

type xProblem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Body    string `xml:",chardata"`
}

func render(t *testing.T, rep *scenario.Report) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, rep); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func decode(t *testing.T, data []byte) xSuites {
	t.Helper()
	var got xSuites
	if err := xml.Unmarshal(data, &got); err != nil {
		t.Fatalf("output does not parse: %v\n%s", err, data)
	}
	return got
}

func TestWriteMapsScenariosToSuitesAndCases(t *testing.T) {
	data := render(t, fourScenarios())
	got := decode(t, data)

	if got.Name != "fastbrowser" || got.Tests != 4 || got.Failures != 1 || got.Errors != 1 || got.Skipped != 1 {
		t.Errorf("root = %s tests=%d failures=%d errors=%d skipped=%d", got.Name, got.Tests, got.Failures, got.Errors, got.Skipped)
	}
	if got.Time != "2.500" || got.Timestamp != "2025-03-04T04:06:07" {
		t.Errorf("root time=%q timestamp=%q", got.Time, got.Timestamp)
	}
	type counts struct{ tests, failures, errors, skipped int }
	want := []struct {
		name, time string
		counts     counts
		cases      [][2]string // classname, name
	}{
		{fileA, "0.460", counts{2, 1, 0, 0}, [][2]string{{"scenarios.quickstart.home_json", "home"}, {"scenarios.quickstart.home_json", "login"}}},
		{fileB, "0.075", counts{2, 0, 1, 1}, [][2]string{{"scenarios.admin_json", "admin-setup"}, {"scenarios.admin_json", "admin-skip"}}},
	}
	if len(got.Suites) != len(want) {
		t.Fatalf("%d suites, want %d", len(got.Suites), len(want))
	}
	var sum counts
	timeRE := regexp.MustCompile(`^\d+\.\d{3}$`)
	tsRE := regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$`)
	for i, w := range want {
		s := got.Suites[i]
		c := counts{s.Tests, s.Failures, s.Errors, s.Skipped}
		if s.Name != w.name || s.ID != i || s.Package != "fastbrowser" || s.Hostname == "" || s.Time != w.time || c != w.counts {
			t.Errorf("suite %d = %+v", i, s)
		}
		// The counts must agree with the children, not only with the expectation.
		var seen counts
		for _, tc := range s.Cases {
			seen.tests++
			switch {
			case tc.Failure != nil:
				seen.failures++
			case tc.Error != nil:
				seen.errors++
			case tc.Skipped != nil:
				seen.skipped++
			}
		}
		if seen != c {
			t.Errorf("suite %d attributes %+v, children %+v", i, c, seen)
		}
		sum = counts{sum.tests + c.tests, sum.failures + c.failures, sum.errors + c.errors, sum.skipped + c.skipped}
		if !tsRE.MatchString(s.Timestamp) {
			t.Errorf("suite %d timestamp %q", i, s.Timestamp)
		}
		if len(s.Cases) != len(w.cases) {
			t.Fatalf("suite %d: %d cases, want %d", i, len(s.Cases), len(w.cases))
		}
		for j, tc := range s.Cases {
			if tc.Classname != w.cases[j][0] || tc.Name != w.cases[j][1] {
				t.Errorf("suite %d case %d = %s.%s, want %s.%s", i, j, tc.Classname, tc.Name, w.cases[j][0], w.cases[j][1])
			}
			if !timeRE.MatchString(tc.Time) {
				t.Errorf("case %s time %q is not decimal seconds", tc.Name, tc.Time)
			}
		}
	}
	if sum != (counts{got.Tests, got.Failures, got.Errors, got.Skipped}) {
		t.Errorf("suites add up to %+v, root says %d/%d/%d/%d", sum, got.Tests, got.Failures, got.Errors, got.Skipped)
	}

	home, login := got.Suites[0].Cases[0], got.Suites[0].Cases[1]
	setup, skip := got.Suites[1].Cases[0], got.Suites[1].Cases[1]
	if home.Failure != nil || home.Error != nil || home.Skipped != nil || home.Time != "0.120" {
		t.Errorf("passed case = %+v", home)
	}
	f := login.Failure
	if f == nil || login.Error != nil {
		t.Fatalf("login: want only <failure>, got %+v", login)
	}
	if f.Message != `assertion_failed: title did not equal "Dashboard" on one read (title is "Sign in")` || f.Type != "assertion_failed" {
		t.Errorf("failure message=%q type=%q", f.Message, f.Type)
	}
	for _, s := range []string{
		"operations[1] wrong-title (assert): failed", `Expected: title "Dashboard"`, "phase: verify", "retry: safe", "mutationState: not_attempted",
		"blocked: script https://tracker.example",
		"dialog: confirm dismissed: Leave <now>?",
		"evidence: screenshot artifacts/login/20250304T040607Z-abcd/1-screenshot.png",
		"evidence unavailable: outline: redaction_not_proven: password field visible",
	} {
		if !strings.Contains(f.Body, s) {
			t.Errorf("failure body lacks %q:\n%s", s, f.Body)
		}
	}
	for _, s := range []string{"+0ms hook setup passed", "+12ms server ready passed", "operations[0] navigate passed 30ms",
		"operations[1] wrong-title (assert) failed 9ms", "operations[2] click skipped 0ms"} {
		if !strings.Contains(login.SystemOut, s+"\n") {
			t.Errorf("system-out lacks line %q:\n%s", s, login.SystemOut)
		}
	}
	if e := setup.Error; e == nil || e.Message != "hook_failed: setup exited 1" || e.Type != "hook_failed" || !strings.Contains(e.Body, "phase: execute") {
		t.Errorf("scenario-level error = %+v", setup.Error)
	}
	if skip.Skipped == nil || skip.Failure != nil || skip.Error != nil {
		t.Errorf("skipped case = %+v", skip)
	}

	props := func(ps []xProp) map[string]string {
		m := map[string]string{}
		for _, p := range ps {
			m[p.Name] = p.Value
		}
		return m
	}
	p0, p1 := props(got.Suites[0].Properties), props(got.Suites[1].Properties)
	if p0[propRunID] != "20250304T040607Z-abcd" || p0[propBrowserVersion] != "Chrome/131.0" || p0[propSHA256] != "aaaa" || p0[propEnforcement] != "browser" {
		t.Errorf("first suite properties = %v", p0)
	}
	if _, ok := p1[propRunID]; ok || p1[propSHA256] != "bbbb" || p1[propEnforcement] != "browser,proxy" {
		t.Errorf("second suite properties = %v", p1)
	}
	if bytes.Contains(data, []byte(resultMarker)) {
		t.Error("an operation result reached the JUnit file")
	}
}

func TestWriteFollowsSchema(t *testing.T) {
	data := render(t, fourScenarios())
	if err := checkSchema(data); err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	// An empty run is still a valid document.
	if err := checkSchema(render(t, &scenario.Report{})); err != nil {
		t.Fatal(err)
	}
}

func TestClassname(t *testing.T) {
	for in, want := range map[string]string{
		"scenarios/quickstart/home.json": "scenarios.quickstart.home_json",
		"./scenarios//a.json":            "scenarios.a_json",
		"/abs/x.y.json":                  "abs.x_y_json",
		"login.json":                     "login_json",
		"":                               "fastbrowser",
	} {
		if got := classname(in); got != want {
			t.Errorf("classname(%q) = %q, want %q", in, got, want)
		}
	}
}

// Page-derived text may carry anything; the file must stay XML 1.0 that every parser reads.
func TestWriteStripsCharactersXMLForbids(t *testing.T) {
	nasty := "a < b & \"c\" \x00nul \x1b[31mred \xed\xa0\x80surrogate \ufffeX\uffff tab\tend"
	rep := fourScenarios()
	login := &rep.Scenarios[2]
	login.Operations[1].Error.Message = nasty
	login.Operations[1].Blocked[0].Origin = nasty
	login.Events[0].Name = nasty
	login.ID = "login\x07"

	data := render(t, rep)
	got := decode(t, data) // encoding/xml rejects illegal characters, escaped or raw
	if err := checkSchema(data); err != nil {
		t.Fatal(err)
	}
	want := "assertion_failed: a < b & \"c\" nul [31mred surrogate X tab\tend"
	tc := got.Suites[0].Cases[1]
	if tc.Name != "login" || tc.Failure == nil || tc.Failure.Message != want {
		t.Fatalf("case %q failure %+v, want message %q", tc.Name, tc.Failure, want)
	}
	if !utf8.Valid(data) {
		t.Fatal("output is not UTF-8")
	}
	for i, r := range string(data) {
		if !allowed(r, utf8.RuneLen(r)) {
			t.Fatalf("forbidden character %U at byte %d", r, i)
		}
	}
	// No character reference may smuggle a forbidden character either.
	for _, m := range regexp.MustCompile(`&#(x?)([0-9a-fA-F]+);`).FindAllSubmatch(data, -1) {
		base := 10
		if len(m[1]) > 0 {
			base = 16
		}
		n, err := strconv.ParseInt(string(m[2]), base, 32)
		if err != nil || !allowed(rune(n), 3) {
			t.Fatalf("forbidden character reference %s", m[0])
		}
	}
}

// Not parallel: it changes the process umask.
func TestWriteFileIsAtomic0600AndScrubbed(t *testing.T) {
	old := syscall.Umask(0)
	defer syscall.Umask(old)

	dir := t.TempDir()
	path := filepath.Join(dir, "junit.xml")
	// An existing, more open file must be replaced, not reused with its mode.
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	rep := fourScenarios()
	rep.Scenarios[1].Error = &transport.OperationError{Code: "hook_failed", Message: "token SECRET leaked"}
	// A secret whose XML spelling differs from its raw one (`"` is written "&#34;") must be
	// caught too: scrubbing only the bytes would miss it.
	rep.Scenarios[2].Operations[1].Error.Message = `password is pass"word`
	scrub := func(b []byte) []byte {
		b = bytes.ReplaceAll(b, []byte("SECRET"), []byte("[REDACTED]"))
		return bytes.ReplaceAll(b, []byte(`pass"word`), []byte("[REDACTED]"))
	}
	if err := WriteFile(path, rep, scrub, artifacts.ModePrivate); err != nil {
		t.Fatal(err)
	}

	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", fi.Mode().Perm())
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(data, []byte("SECRET")) || !bytes.Contains(data, []byte("token [REDACTED] leaked")) ||
		bytes.Contains(data, []byte("pass&#34;word")) || !bytes.Contains(data, []byte("password is [REDACTED]")) {
		t.Errorf("scrub not applied:\n%s", data)
	}
	if err := checkSchema(data); err != nil {
		t.Error(err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || entries[0].Name() != "junit.xml" {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("directory holds %v, want only junit.xml", names)
	}
}

// An interrupted scenario with no scenario-level error reports its operation's error, and
// still counts as an error, as Report.Count does.
func TestInterruptedFallsBackToOperationError(t *testing.T) {
	rep := &scenario.Report{Scenarios: []scenario.ScenarioReport{loginFailed(), {ID: "bare", File: fileA, Status: scenario.StatusInterrupted}}}
	rep.Scenarios[0].Status = scenario.StatusInterrupted
	got := decode(t, render(t, rep))
	if got.Errors != 2 || got.Failures != 0 {
		t.Fatalf("errors=%d failures=%d, want 2 and 0", got.Errors, got.Failures)
	}
	if e := got.Suites[0].Cases[0].Error; e == nil || e.Type != "assertion_failed" || !strings.HasPrefix(e.Message, "assertion_failed: title") {
		t.Errorf("interrupted with an operation error = %+v", e)
	}
	if e := got.Suites[0].Cases[1].Error; e == nil || e.Type != "interrupted" || e.Message != "interrupted" {
		t.Errorf("interrupted without any error = %+v", e)
	}
}

// TestDetailListsEvidenceOnce: each evidence artifact and unavailable part of a failed
// operation is one line of the failure body.
func TestDetailListsEvidenceOnce(t *testing.T) {
	s := loginFailed()
	body := detail(&s)
	for _, line := range []string{
		"  evidence: screenshot artifacts/login/20250304T040607Z-abcd/1-screenshot.png\n",
		"  evidence unavailable: outline: redaction_not_proven: password field visible\n",
	} {
		if n := strings.Count(body, line); n != 1 {
			t.Errorf("%q appears %d times in:\n%s", line, n, body)
		}
	}
}
