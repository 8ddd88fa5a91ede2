package scenario

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/fastbrowser/fastbrowser/artifacts"
	"github.com/fastbrowser/fastbrowser/transport"
)

// ReportVersion is report v1; later fields are additive.
const ReportVersion = 1

// Statuses of a run, a scenario and an operation.
const (
	StatusPassed      = "passed"
	StatusFailed      = "failed"
	StatusError       = "error"
	StatusInterrupted = "interrupted"
	StatusSkipped     = "skipped"
	// StatusFlaky is a scenario that did not pass its first attempt and passed a retry
	// (`run --retries`). It counts as passed for the run's status and exit code.
	StatusFlaky = "flaky"
)

// Report is report v1 (docs/scenarios.md, "Report v1").
type Report struct {
	Version    int         `json:"version"`
	RunID      string      `json:"runId"`
	Status     string      `json:"status"`
	StartedAt  time.Time   `json:"startedAt"`
	DurationMs int64       `json:"durationMs"`
	Browser    BrowserInfo `json:"browser"`
	Cwd        string      `json:"cwd,omitempty"` // the run's absolute working directory: relative File paths resolve against it (replay)
	// Suite says which suite `run` ran and which shard of it (suiteid.go; added in issue
	// 29); absent in a replay's report.
	Suite     *SuiteInfo       `json:"suite,omitempty"`
	Scenarios []ScenarioReport `json:"scenarios"`
}

// BrowserInfo says which browser ran the scenarios and whether fastbrowser owned it.
type BrowserInfo struct {
	Version  string `json:"version"`
	Attached bool   `json:"attached"`
}

// ScenarioReport is one scenario's outcome.
type ScenarioReport struct {
	ID string `json:"id"`
	// Project is the project the scenario ran under (`run --project`; absent: none), and
	// Variables the {"var"} values its operations used (not secret).
	Project   string            `json:"project,omitempty"`
	Variables map[string]string `json:"variables,omitempty"`
	// Description is the scenario file's own description, as written.
	Description string `json:"description,omitempty"`
	File        string `json:"file"`
	SHA256      string `json:"sha256"`
	// Fragments lists the fragment files the scenario included (file, sha256), whose
	// digests SHA256 then covers too.
	Fragments []FragmentRef `json:"fragments,omitempty"`
	// Tags are the scenario file's tags, as written.
	Tags []string `json:"tags,omitempty"`
	// Model is the model the scenario's session had for task and extract (provider and
	// name only; absent: none).
	Model      *ModelInfo `json:"model,omitempty"`
	Status     string     `json:"status"`
	DurationMs int64      `json:"durationMs"`
	// SessionOpenedAheadMs is how long opening the scenario's browser session took when
	// `run` opened it ahead, while earlier scenarios ran (absent: the scenario opened its
	// own). That time is before the scenario started, so it is not part of DurationMs.
	SessionOpenedAheadMs int64 `json:"sessionOpenedAheadMs,omitempty"`
	// SkipReason says why a skipped scenario never started (--fail-fast after a failure, an
	// interrupted run).
	SkipReason string `json:"skipReason,omitempty"`
	// Enforcement lists where the origin policy is enforced: "browser" (CDP interception)
	// and, later, "proxy".
	Enforcement []string                  `json:"enforcement"`
	Events      []Event                   `json:"events"`
	Operations  []OperationReport         `json:"operations"`
	Error       *transport.OperationError `json:"error,omitempty"`
	// Diagnostics lists the output logs kept for the scenario's hooks and managed server
	// (kind "log", text, secrets masked; Truncated when only the first and last bytes were
	// kept), in the order those started. Path is relative to DIR/artifacts.
	Diagnostics []artifacts.Meta `json:"diagnostics,omitempty"`
	// Attempts lists every attempt, in order, when the scenario ran more than once (`run
	// --retries`); the fields above are then those of the last attempt, except Status
	// (flaky when it passed) and DurationMs (all attempts together).
	Attempts []Attempt `json:"attempts,omitempty"`
	// Trace is the step trace kept for the scenario's last attempt (`run --trace`; absent
	// when none was kept): one step per operation that ran, in order (trace.go).
	Trace []TraceStep `json:"trace,omitempty"`
}

// Title is how the scenario is named in the console, JUnit and report.html: "project › id"
// under a project (Playwright's title path), else its id.
func (s *ScenarioReport) Title() string {
	if s.Project == "" {
		return s.ID
	}
	return s.Project + " › " + s.ID
}

// Attempt is one run of a scenario that ran more than once: its outcome, lifecycle, the
// operation that failed (with its error and evidence) or the scenario error, and its
// diagnostics. Each attempt's artifacts are in a directory of their own (AttemptRunDir).
type Attempt struct {
	Attempt    int    `json:"attempt"` // 1 is the first run
	Status     string `json:"status"`  // passed, failed, error or interrupted
	DurationMs int64  `json:"durationMs"`
	// SessionOpenedAheadMs: see ScenarioReport (only a first attempt's session is opened
	// ahead).
	SessionOpenedAheadMs int64   `json:"sessionOpenedAheadMs,omitempty"`
	Events               []Event `json:"events"`
	// Operation is the attempt's failed operation as the scenario's operations list it.
	Operation   *OperationReport          `json:"operation,omitempty"`
	Error       *transport.OperationError `json:"error,omitempty"`
	Diagnostics []artifacts.Meta          `json:"diagnostics,omitempty"`
	// Trace is the attempt's step trace, when it was kept (see ScenarioReport.Trace).
	Trace []TraceStep `json:"trace,omitempty"`
}

// Event is one step of the scenario's lifecycle (hooks, server, runtime) in order.
type Event struct {
	AtMs   int64  `json:"atMs"`
	Kind   string `json:"kind"` // hook | server | runtime
	Name   string `json:"name"` // setup, reset, cleanup | start, ready, stop | relaunch, open, close
	Status string `json:"status"`
}

// OperationReport is one operation's outcome.
type OperationReport struct {
	Index int    `json:"index"`
	ID    string `json:"id,omitempty"`
	Op    string `json:"op"`
	// Target and Value say what the operation worked on and with, from the scenario file
	// (opsummary.go): a typed secret is only ever secrets.Mask.
	Target string `json:"target,omitempty"`
	Value  string `json:"value,omitempty"`
	Status string `json:"status"`
	// SkipReason says why an operation that was reached was skipped (its when did not hold).
	SkipReason string `json:"skipReason,omitempty"`
	DurationMs int64  `json:"durationMs"`
	// HTTPStatus is the main document's response status of a navigate or reload that
	// passed (0: none, e.g. a file: or about: URL).
	HTTPStatus int                       `json:"httpStatus,omitempty"`
	Posture    transport.Posture         `json:"posture,omitempty"`
	Result     json.RawMessage           `json:"result,omitempty"`
	Blocked    []transport.Blocked       `json:"blocked,omitempty"`
	Dialogs    []transport.Dialog        `json:"dialogs,omitempty"`
	Error      *transport.OperationError `json:"error,omitempty"`
	// Evidence lists the failure evidence committed for a failed operation (metadata only;
	// Path is relative to the run's artifacts directory, DIR/artifacts).
	Evidence []artifacts.Meta `json:"evidence,omitempty"`
	// EvidenceUnavailable says which evidence parts are missing and why (e.g. a screenshot
	// not kept: redaction_not_proven). Missing evidence never changes Error.
	EvidenceUnavailable []transport.UnavailablePart `json:"evidenceUnavailable,omitempty"`
	// Location is where the operation's entry is written (a fragment's for an included
	// operation); absent when not known.
	Location *Location `json:"location,omitempty"`
	// CodeFrame is, for a failed operation, the lines of its file around its entry with the
	// entry's line marked (codeframe.go), as Playwright shows a failing line.
	CodeFrame string `json:"codeFrame,omitempty"`
	// Soft says the operation is a soft assertion ("soft": true): its failure let the
	// scenario go on, and failed it at the end.
	Soft bool `json:"soft,omitempty"`
	// Healed says an act with words did not replay its recording but ran by its words
	// (actwords.go): passed, with what it acted on instead and why.
	Healed *Healed `json:"healed,omitempty"`
}

// Name is how a failure names the operation: "id (op)", "op" without an id, with ", soft"
// inside the brackets for a soft assertion: "title (assert, soft)", "assert (soft)".
func (op OperationReport) Name() string {
	kind := op.Op
	if op.Soft {
		kind += ", soft"
	}
	switch {
	case op.ID != "":
		return op.ID + " (" + kind + ")"
	case op.Soft:
		return op.Op + " (soft)"
	}
	return op.Op
}

// NewRunID returns a fresh run id: UTC time plus random bits, sortable and unique.
func NewRunID(now time.Time) string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return now.UTC().Format("20060102T150405Z") + "-" + hex.EncodeToString(b[:])
}

// Summarise sets the run status from the scenarios: interrupted over error over failed.
func (r *Report) Summarise() {
	r.Status = StatusPassed
	rank := map[string]int{StatusPassed: 0, StatusFlaky: 0, StatusFailed: 1, StatusError: 2, StatusInterrupted: 3}
	for _, s := range r.Scenarios {
		if rank[s.Status] > rank[r.Status] {
			r.Status = s.Status
		}
	}
}

// Counts is the run summary `run --json` prints.
type Counts struct {
	Passed  int `json:"passed"`
	Failed  int `json:"failed"`
	Error   int `json:"error"`
	Skipped int `json:"skipped"`
	Flaky   int `json:"flaky"`
}

// Count tallies scenarios by status (interrupted counts as error; flaky is counted apart
// from passed).
func (r *Report) Count() Counts {
	var c Counts
	for _, s := range r.Scenarios {
		switch s.Status {
		case StatusPassed:
			c.Passed++
		case StatusFailed:
			c.Failed++
		case StatusSkipped:
			c.Skipped++
		case StatusFlaky:
			c.Flaky++
		default:
			c.Error++
		}
	}
	return c
}

// WriteFile writes the report as indented JSON, atomically (temp file + rename), 0600.
func (r *Report) WriteFile(path string) error {
	return r.WriteFileScrubbed(path, nil, artifacts.ModePrivate)
}

// WriteFileScrubbed is WriteFile with the JSON passed through scrub first (the run's secret
// scrubber; nil writes it as it is), in mode's file mode (run --artifacts-mode).
func (r *Report) WriteFileScrubbed(path string, scrub func([]byte) []byte, mode artifacts.Mode) error {
	return writeAtomicStream(path, mode.File(), func(w io.Writer) error { return r.encodeScrubbed(w, scrub) })
}

// encodeScrubbed writes r as indented JSON one scenario at a time, each piece scrubbed on
// its own (each is a whole JSON value, so no string spans two pieces): a run of a thousand
// scenarios never holds its whole report.json, or a scrubbed copy of it, in memory. The
// bytes are those one json.Encoder (two-space indent, no HTML escaping) would write.
func (r *Report) encodeScrubbed(w io.Writer, scrub func([]byte) []byte) error {
	if scrub == nil {
		scrub = func(b []byte) []byte { return b }
	}
	head := *r
	head.Scenarios = []ScenarioReport{} // Scenarios is the last field: its "[]" is where they go
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(&head); err != nil {
		return err
	}
	// The head is scrubbed whole (valid JSON, so ScrubJSON reads its strings decoded), then
	// opened where the scenarios go.
	const tail = "[]\n}\n"
	headJSON := scrub(buf.Bytes())
	if len(r.Scenarios) == 0 {
		_, err := w.Write(headJSON)
		return err
	}
	if !bytes.HasSuffix(headJSON, []byte(tail)) {
		return errors.New("report: the scenarios are not the report's last field")
	}
	if _, err := w.Write(append(headJSON[:len(headJSON)-len(tail):len(headJSON)-len(tail)], "[\n"...)); err != nil {
		return err
	}
	enc.SetIndent("    ", "  ")
	for i := range r.Scenarios {
		buf.Reset()
		buf.WriteString("    ")
		if err := enc.Encode(&r.Scenarios[i]); err != nil {
			return err
		}
		piece := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
		sep := ",\n"
		if i == len(r.Scenarios)-1 {
			sep = "\n  ]\n}\n"
		}
		if _, err := w.Write(append(scrub(piece), sep...)); err != nil {
			return err
		}
	}
	return nil
}

// WritePrivateFile writes a run output (report.json, junit.xml, report.html) atomically —
// a temporary file in the same directory, then a rename — with mode 0600 whatever the
// umask: a reader never sees half a report, and nobody else reads it.
func WritePrivateFile(path string, data []byte) error {
	return WriteOutputFile(path, data, artifacts.ModePrivate)
}

// WriteOutputFile is WritePrivateFile with mode's file mode: 0640 for ModeGroup, so a CI
// agent of the owner's group can read the run's outputs.
func WriteOutputFile(path string, data []byte, mode artifacts.Mode) error {
	return writeAtomic(path, data, mode.File())
}

// writeAtomicStream is writeAtomic for content written by write through a buffer, so a
// large file is never whole in memory.
func writeAtomicStream(path string, perm os.FileMode, write func(io.Writer) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+"-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // no-op after the rename
	bw := bufio.NewWriterSize(tmp, 64<<10)
	err = tmp.Chmod(perm)
	if err == nil {
		err = write(bw)
	}
	if err == nil {
		err = bw.Flush()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// WriteOutputStream is WriteOutputFile for content written by write (through a buffer, never
// whole in memory): atomically, in mode's file mode whatever the umask.
func WriteOutputStream(path string, mode artifacts.Mode, write func(io.Writer) error) error {
	return writeAtomicStream(path, mode.File(), write)
}

// writeAtomic writes data to path as a temporary file in the same directory with perm,
// whatever the umask, then renamed over path: a reader never sees half a file.
func writeAtomic(path string, data []byte, perm os.FileMode) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+"-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // no-op after the rename
	if err := tmp.Chmod(perm); err != nil {
		tmp.Close()
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
