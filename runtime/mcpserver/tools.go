package mcpserver

import (
	"encoding/json"
	"slices"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/strictjson"
)

// tool is one row of the tool table: an MCP tool that is exactly one protocol operation.
type tool struct {
	name, op, description string
	// opens: the tool opens a session (openSession) and names none; every other tool's
	// arguments carry the session it runs in.
	opens bool
	// narrow shapes the operation's request schema into the tool's (nil: taken as it is).
	narrow func(s *jsonschema.Schema, o Options)
	// request builds the operation from the arguments, session left out (nil: they are the
	// operation's request, decoded as strictly as a protocol frame's).
	request func(args json.RawMessage, c call) (transport.Operation, error)
	// page: the result holds page content and goes inside the Envelope.
	page bool
	// omit leaves result fields out that the tool does not return.
	omit []string
}

// call is what a tool's request knows besides its arguments.
type call struct {
	session, task string
	opts          Options
}

// tools is the tool table, in the order tools/list gives it.
var tools = []tool{
	{name: "browser_open", op: transport.OpOpenSession, opens: true,
		description: "Open a browser session: a browser context of its own that may load only allowedOrigins (exact origins inside the server's --binding-origin; narrowing only, deny by default). Returns the session id every other tool takes.",
		narrow:      func(s *jsonschema.Schema, _ Options) { dropProperty(s, "task") },
		request: func(args json.RawMessage, c call) (transport.Operation, error) {
			// The connection owns what it opens: its task goes in, whatever the arguments say.
			var m map[string]json.RawMessage
			if err := json.Unmarshal(args, &m); err != nil {
				return nil, transport.Invalid(transport.OpOpenSession, "request", "expected an object of arguments")
			}
			m["task"], _ = json.Marshal(c.task)
			withTask, err := json.Marshal(m)
			if err != nil {
				return nil, err
			}
			return decodeRequest(transport.OpOpenSession, withTask)
		}},
	{name: "browser_navigate", op: transport.OpNavigate, page: true,
		description: "Load an http(s) URL in the session's tab (the selected one unless tab is given). An origin outside the session's allowedOrigins is refused (egress_denied) and nothing of it loads."},
	{name: "browser_observe", op: transport.OpObserve, page: true, omit: []string{"nodes"},
		description: "The page's outline: one line per element, actionable ones with a ref (e12) for browser_act, bounded by maxNodes, maxDepth and maxTextChars (truncated says a bound was reached). A ref holds only for the documentId it came with."},
	{name: "browser_act", op: transport.OpAct, page: true,
		description: "One action on one element, by ref from browser_observe or by locator (role and name, text, label, placeholder, …): click, dblclick, hover, focus, blur, type, fill, clear, select, check, uncheck, press, upload, dragTo, scrollIntoView. A ref from an earlier document is refused (stale_document), never acted on. text is a literal: type a secret with browser_type_secret.",
		narrow: func(s *jsonschema.Schema, _ Options) {
			if _, ok := s.Properties["text"]; ok {
				s.Properties["text"] = &jsonschema.Schema{Type: "string", Description: "literal text for type and fill; a secret is typed with browser_type_secret"}
			}
		},
		request: func(args json.RawMessage, _ call) (transport.Operation, error) {
			op, err := decodeRequest(transport.OpAct, args)
			if err != nil {
				return nil, err
			}
			// The schema says a literal; this holds even for a client that skips it: an
			// {"env"} text would let a model type any variable of the server's environment.
			if t := op.(*transport.Act).Text; t != nil && t.EnvName() != "" {
				return nil, transport.Invalid(transport.OpAct, "request.text", "expected a literal string: type a secret with browser_type_secret, by one of the server's --secret-env names")
			}
			return op, nil
		}},
	{name: "browser_type_secret", op: transport.OpAct, page: true,
		description: "Type a secret into an element by the name of one of the server's --secret-env variables. The value never reaches the model: results, errors and logs mask it.",
		narrow:      narrowTypeSecret,
		request:     typeSecret},
	{name: "browser_read", op: transport.OpRead, page: true,
		description: "The page's visible text, title and URL, bounded (truncated says so). Never input values, passwords, hidden text or HTML."},
	{name: "browser_close", op: transport.OpCloseSession,
		description: "Close the session: its browser context ends and its id is never reopened; a later call on it is refused (session_ended).",
		narrow: func(s *jsonschema.Schema, _ Options) {
			dropProperty(s, "task")
			dropProperty(s, "session") // added back as every tool's session
		},
		request: func(_ json.RawMessage, c call) (transport.Operation, error) {
			return &transport.CloseSession{Session: c.session, Task: c.task}, nil
		}},
}

// decodeRequest decodes args as op's request, as strictly as wire.Serve decodes a frame's
// (unknown keys, wrong types and missing required fields are invalid_request with a path).
func decodeRequest(name string, args json.RawMessage) (transport.Operation, error) {
	op, _ := transport.NewOperation(name)
	if err := strictjson.DecodeAt(args, op, "request"); err != nil {
		return nil, decodeError(name, err)
	}
	return op, nil
}

func decodeError(op string, err error) error {
	if se, ok := err.(*strictjson.Error); ok {
		return transport.Invalid(op, se.Path, "%s", se.Message)
	}
	return transport.Invalid(op, "request", "malformed arguments")
}

// typeSecretArgs are browser_type_secret's arguments: act's tab and target, and the name.
type typeSecretArgs struct {
	Tab    string           `json:"tab,omitempty"`
	Target transport.Target `json:"target" required:"true"`
	Name   string           `json:"name" required:"true"`
}

// typeSecret is act type with {"env": NAME} text, NAME one of the server's --secret-env
// names: the runtime reads the value, types it and masks it everywhere after.
func typeSecret(args json.RawMessage, c call) (transport.Operation, error) {
	var a typeSecretArgs
	if err := strictjson.DecodeAt(args, &a, "request"); err != nil {
		return nil, decodeError(transport.OpAct, err)
	}
	if !slices.Contains(c.opts.SecretNames, a.Name) {
		if len(c.opts.SecretNames) == 0 {
			return nil, transport.Invalid(transport.OpAct, "request.name", "the server was started without --secret-env: it types no secret")
		}
		return nil, transport.Invalid(transport.OpAct, "request.name", "expected one of the server's --secret-env names %v", c.opts.SecretNames)
	}
	return &transport.Act{Tab: a.Tab, Action: transport.ActType, Target: a.Target, Text: transport.FromEnv(a.Name)}, nil
}

// narrowTypeSecret keeps act's tab and target and adds name, one of the secret names.
func narrowTypeSecret(s *jsonschema.Schema, o Options) {
	for p := range s.Properties {
		if p != "tab" && p != "target" {
			dropProperty(s, p)
		}
	}
	name := &jsonschema.Schema{Type: "string", Description: "the name of one of the server's --secret-env variables"}
	for _, n := range o.SecretNames {
		name.Enum = append(name.Enum, n)
	}
	s.Properties["name"] = name
	s.Required = []string{"target", "name"}
}

func dropProperty(s *jsonschema.Schema, name string) {
	delete(s.Properties, name)
	s.Required = slices.DeleteFunc(s.Required, func(r string) bool { return r == name })
}
