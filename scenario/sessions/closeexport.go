package sessions

import (
	"encoding/json"
	"os"
)

// ExportRequest is `session export`'s.
type ExportRequest struct {
	ID   string `json:"id,omitempty"`
	Skip []int  `json:"skip,omitempty"`
}

// ExportResult is `session export`'s output: the file (inline, or the path it was written
// to with --out), how many operations it holds, and the warnings.
type ExportResult struct {
	Session    string          `json:"session"`
	Scenario   json.RawMessage `json:"scenario,omitempty"`
	Out        string          `json:"out,omitempty"`
	Operations int             `json:"operations"`
	Warnings   []string        `json:"warnings"`
	// File carries the file's exact bytes from the host to the command (a raw JSON value
	// would be re-encoded on the way); the command prints it as Scenario or writes it.
	File string `json:"file,omitempty"`
}

// ExportSession exports a session from its state directory: the host answers it for an
// open session, the command itself for an ended one (the history outlives the browser).
func ExportSession(d *Dir, req ExportRequest) (*ExportResult, []byte, error) {
	rec, err := d.Record()
	if err != nil {
		return nil, nil, Errorf(CodeFailed, "session %s: its record cannot be read", d.ID)
	}
	entries, err := d.Entries()
	if err != nil {
		return nil, nil, Errorf(CodeFailed, "session %s: its history cannot be read", d.ID)
	}
	ex, err := Export(rec, entries, ExportOptions(req))
	if err != nil {
		return nil, nil, err
	}
	w := ex.Warnings
	if w == nil {
		w = []string{}
	}
	return &ExportResult{Session: d.ID, Operations: ex.Operations, Warnings: w}, ex.File, nil
}

func (h *Host) export(raw json.RawMessage) (any, error) {
	var req ExportRequest
	if err := json.Unmarshal(raw, &req); err != nil {
		return nil, Errorf(CodeInvalidInput, "the export request is malformed")
	}
	res, file, err := ExportSession(h.dir, req)
	if err != nil {
		return nil, err
	}
	for i, w := range res.Warnings {
		res.Warnings[i] = h.secrets.Scrub(w)
	}
	res.File = string(file)
	return res, nil
}

// CloseRequest is `session close`'s.
type CloseRequest struct {
	Keep bool `json:"keep,omitempty"`
}

// CloseResult is `session close`'s output.
type CloseResult struct {
	ID string `json:"id"`
	// State is "ended" (--keep: the history stays for export and list) or "removed".
	State  string `json:"state"`
	Reason string `json:"reason,omitempty"`
}

// closeSession stops the browser before it answers, then ends the host: close returns
// only once nothing of the session runs.
func (h *Host) closeSession(raw json.RawMessage) (any, error) {
	var req CloseRequest
	if err := json.Unmarshal(raw, &req); err != nil {
		return nil, Errorf(CodeInvalidInput, "the close request is malformed")
	}
	reason := endRemoved
	if req.Keep {
		reason = EndClosed
	}
	h.end(reason)
	if err := h.finish(); err != nil {
		return nil, Errorf(CodeFailed, "session %s did not close cleanly", h.dir.ID)
	}
	if req.Keep {
		return &CloseResult{ID: h.dir.ID, State: StateEnded, Reason: EndClosed}, nil
	}
	_ = os.Remove(h.dir.SocketPath())
	return &CloseResult{ID: h.dir.ID, State: "removed"}, nil
}
