package junit

import (
	"encoding/xml"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/scenario"
)

// TestWhenSkippedOperation: a scenario that passed with an operation its when skipped is a
// passed testcase (no <skipped>), and its system-out says why that operation was skipped.
func TestWhenSkippedOperation(t *testing.T) {
	rep := &scenario.Report{Version: 1, RunID: "r", Status: scenario.StatusPassed, Scenarios: []scenario.ScenarioReport{
		{ID: "cookies", File: "cookies.json", Status: scenario.StatusPassed, Operations: []scenario.OperationReport{
			{Index: 0, Op: "navigate", Status: scenario.StatusPassed, DurationMs: 30},
			{Index: 1, Op: "act", Status: scenario.StatusSkipped, SkipReason: "its when condition did not hold", DurationMs: 2},
		}}}}
	data := render(t, rep)
	if err := checkSchema(data); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Skipped int `xml:"skipped,attr"`
		Cases   []struct {
			SystemOut string    `xml:"system-out"`
			Skipped   *struct{} `xml:"skipped"`
			Failure   *struct{} `xml:"failure"`
		} `xml:"testsuite>testcase"`
	}
	if err := xml.Unmarshal(data, &doc); err != nil || len(doc.Cases) != 1 {
		t.Fatalf("%v %+v", err, doc)
	}
	c := doc.Cases[0]
	if c.Skipped != nil || c.Failure != nil || doc.Skipped != 0 {
		t.Errorf("a passed scenario with a when-skipped operation is not a plain pass: %+v %s", doc, data)
	}
	if !strings.Contains(c.SystemOut, "operations[1] act skipped 2ms (its when condition did not hold)\n") {
		t.Errorf("system-out:\n%s", c.SystemOut)
	}
}
