package junit

import (
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/scenario"
)

// TestCaseFileDescriptionAndSkipReason: each testcase names its file relative to the
// working directory (an absolute path inside it made relative, one outside kept), its
// system-out starts with the scenario's description, and a skipped one's <skipped> has the
// skip reason as its message.
func TestCaseFileDescriptionAndSkipReason(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	rep := &scenario.Report{Version: 1, RunID: "r", Status: scenario.StatusPassed, Scenarios: []scenario.ScenarioReport{
		{ID: "a", File: "./scenarios//a.json", Status: scenario.StatusPassed, Description: "Logs in & out <fast>"},
		{ID: "b", File: filepath.Join(wd, "scenarios", "b.json"), Status: scenario.StatusSkipped, SkipReason: "not started: the run was interrupted"},
		{ID: "c", File: "/elsewhere/c.json", Status: scenario.StatusPassed},
	}}
	var doc struct {
		Cases []struct {
			Name      string `xml:"name,attr"`
			File      string `xml:"file,attr"`
			SystemOut string `xml:"system-out"`
			Skipped   *struct {
				Message string `xml:"message,attr"`
			} `xml:"skipped"`
		} `xml:"testsuite>testcase"`
	}
	data := render(t, rep)
	if err := checkSchema(data); err != nil {
		t.Fatal(err)
	}
	if err := xml.Unmarshal(data, &doc); err != nil || len(doc.Cases) != 3 {
		t.Fatalf("%v %+v", err, doc)
	}
	a, b, c := doc.Cases[0], doc.Cases[1], doc.Cases[2]
	if a.File != "scenarios/a.json" || !strings.HasPrefix(a.SystemOut, "description: Logs in & out <fast>\n") || a.Skipped != nil {
		t.Errorf("a: %+v", a)
	}
	if b.File != "scenarios/b.json" || b.Skipped == nil || b.Skipped.Message != "not started: the run was interrupted" {
		t.Errorf("b: %+v", b)
	}
	if c.File != "/elsewhere/c.json" || strings.Contains(c.SystemOut, "description:") {
		t.Errorf("c: %+v", c)
	}
}
