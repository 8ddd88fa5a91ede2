package conformance

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
)

// Check statuses.
const (
	StatusPass = "pass"
	StatusFail = "fail"
)

// Result is one check's outcome.
type Result struct {
	Name       string `json:"name"`
	Status     string `json:"status"`
	Message    string `json:"message,omitempty"` // why it failed; empty on a pass
	DurationMs int64  `json:"durationMs"`
}

// Report is a whole run: what was tested and every check's result, in the order they ran.
type Report struct {
	Worker  []string `json:"worker"`  // the worker command line, before the runtime's own flags
	Fixture string   `json:"fixture"` // the fixture site's origin
	Passed  int      `json:"passed"`
	Failed  int      `json:"failed"`
	Checks  []Result `json:"checks"`
}

// OK reports whether every check passed (and at least one ran).
func (r *Report) OK() bool { return r.Failed == 0 && r.Passed > 0 }

// add records a result and prints its line: "PASS name" or "FAIL name: why".
func (r *Report) add(out io.Writer, res Result) {
	r.Checks = append(r.Checks, res)
	if res.Status == StatusPass {
		r.Passed++
		fmt.Fprintf(out, "PASS %s\n", res.Name)
		return
	}
	r.Failed++
	fmt.Fprintf(out, "FAIL %s: %s\n", res.Name, res.Message)
}

// Summary is the closing line: "N passed, N failed".
func (r *Report) Summary() string { return fmt.Sprintf("%d passed, %d failed", r.Passed, r.Failed) }

// WriteFile writes the report as indented JSON (it holds no secret: the suite's secret is
// never put in a message).
func (r *Report) WriteFile(path string) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}
