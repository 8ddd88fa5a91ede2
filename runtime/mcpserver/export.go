package mcpserver

import (
	"encoding/json"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fastbrowser/fastbrowser/transport"
)

// Recorder keeps what browser_export needs of each session and turns it into a scenario
// file. It is an interface because the file is the scenario layer's (scenario/sessions
// Calls, the code `session export` runs), which runtime must not import: cmd/fastbrowser
// wires one in. nil: browser_export is refused.
type Recorder interface {
	// Record is told every call that succeeded, in the order the host answered them, with
	// the connection's task and the call's session as owner (browser_open's is the
	// session it opened). exported is the tool table's: the call goes into the file; the
	// rest (an outline) only names what later calls point at.
	Record(owner transport.Owner, op transport.Operation, res transport.Result, exported bool)
	// Export is owner's session as a scenario file v1 with scenario id id ("": a default);
	// a refusal is a protocol error (session_not_found, session_not_owned, invalid_request).
	Export(owner transport.Owner, id string) (*Export, error)
}

// Export is browser_export's result, inside the envelope: the file names elements by the
// role and accessible name the page gave them, which is page content like any other.
type Export struct {
	File       string   `json:"file"`       // the scenario file v1 that `fastbrowser run` replays
	Operations int      `json:"operations"` // how many operations it holds
	Warnings   []string `json:"warnings"`   // what may not replay as it was recorded
}

// exportArgs are browser_export's arguments besides its session.
type exportArgs struct {
	ID string `json:"id,omitempty"`
}

// narrowExport gives browser_export its one argument besides the session.
func narrowExport(s *jsonschema.Schema, _ Options) {
	s.Properties["id"] = &jsonschema.Schema{Type: "string",
		Description: "the scenario id (1–64 of A–Z a–z 0–9 . _ -); default session-<session id>"}
}

// export answers browser_export from the Recorder, not the host: a file is made of the
// calls the host already answered, and nothing reaches the browser.
func (s *Server) export(args json.RawMessage, c call) *mcp.CallToolResult {
	var a exportArgs
	if err := json.Unmarshal(args, &a); err != nil {
		return s.refused("", transport.Invalid("", "request", "expected an object of arguments"))
	}
	if s.opts.Recorder == nil {
		return s.refused("", transport.NewError("", transport.PhaseValidate, transport.CodeInvalidRequest, transport.RetryNever, transport.NotAttempted, "this server keeps no history to export"))
	}
	x, err := s.opts.Recorder.Export(transport.Owner{Session: c.session, Task: c.task}, a.ID)
	if err != nil {
		return s.refused("", err)
	}
	if x.Warnings == nil {
		x.Warnings = []string{}
	}
	return s.content(untrusted(x), false)
}

// record tells the Recorder a call that succeeded.
func (s *Server) record(t tool, c call, op transport.Operation, res transport.Result) {
	if s.opts.Recorder != nil {
		s.opts.Recorder.Record(transport.Owner{Session: c.session, Task: c.task}, op, res, t.exported)
	}
}
