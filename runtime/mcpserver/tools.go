package mcpserver

import (
	"encoding/json"
	"slices"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

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
	// shape is what of the result the tool returns (nil: all of it), encoded once with the
	// rest of the answer.
	shape func(transport.Result) any
	// store: the operation keeps an artifact, so the server needs --artifacts; without it
	// the call is refused before anything runs, naming the flag.
	store bool
	// image returns the picture a result's artifact holds, read back from the store at root
	// (nil: the result has none to show).
	image func(root string, result transport.Result) (*mcp.ImageContent, error)
	// exported: browser_export writes the call into the scenario file (a navigation, a
	// mutation, a tab change, an assertion; never a read, outline or screenshot, as
	// `session export` leaves screenshots out).
	exported bool
	// local answers the tool in the server, sending nothing to the host (op is ""):
	// browser_export, made of calls the host already answered.
	local func(s *Server, args json.RawMessage, c call) *mcp.CallToolResult
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
	{name: "browser_navigate", exported: true, op: transport.OpNavigate, page: true,
		description: "Load an http(s) URL in the session's tab (the selected one unless tab is given). A URL outside the session's allowedOrigins is refused before anything loads (origin_denied); a redirect or a request of the page to such an origin is refused in the browser (egress_denied)."},
	{name: "browser_observe", op: transport.OpObserve, page: true, shape: withoutNodes,
		description: "The page's outline: one line per element, actionable ones with a ref (e12) for browser_act, bounded by maxNodes, maxDepth and maxTextChars (truncated says a bound was reached). A ref holds only for the documentId it came with."},
	{name: "browser_act", op: transport.OpAct, page: true, exported: true,
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
	{name: "browser_type_secret", op: transport.OpAct, page: true, exported: true,
		description: "Type a secret into an element by the name of one of the server's --secret-env variables. The value never reaches the model: results, errors and logs mask it.",
		narrow:      narrowTypeSecret,
		request:     typeSecret},
	{name: "browser_read", op: transport.OpRead, page: true,
		description: "The page's visible text, title and URL, bounded (truncated says so). Never input values, passwords, hidden text or HTML."},
	{name: "browser_back", exported: true, op: transport.OpGoBack, page: true,
		description: "Go one entry back in the tab's history, as the browser's Back button (the selected tab unless tab is given), under the session's origins like browser_navigate."},
	{name: "browser_forward", exported: true, op: transport.OpGoForward, page: true,
		description: "Go one entry forward in the tab's history (the selected tab unless tab is given), under the session's origins like browser_navigate."},
	{name: "browser_reload", exported: true, op: transport.OpReload, page: true,
		description: "Reload the tab's document (the selected tab unless tab is given). Refs from before it are stale after it."},
	{name: "browser_tabs", op: transport.OpListTabs, page: true,
		description: "List the session's tabs in creation order (tab handle, url, title, selected), tabs on origins outside the session's left out; select picks one by exact origin or index. Never changes the selection."},
	{name: "browser_select_tab", exported: true, op: transport.OpSelectTab, page: true,
		description: "Make a tab (its handle from browser_tabs or browser_wait_popup) the selected one, which tools without tab act on. The only tool that changes the selection."},
	{name: "browser_wait_popup", op: transport.OpWaitPopup, exported: true,
		page:        true,
		description: "The oldest popup the opener tab (the selected one unless opener is given) opened that no earlier call returned, waiting at most 5 s (timeout). Returns the popup's handle; the selection does not change: pass it as tab or select it with browser_select_tab."},
	{name: "browser_close_tab", exported: true, op: transport.OpCloseTab,
		description: "Close one tab by its handle. Closing the selected tab leaves none selected until browser_select_tab."},
	{name: "browser_assert", exported: true, op: transport.OpAssert,
		description: "Check one read-only fact about the page, polling until it holds within 5 s (timeoutMs, up to 120000; wait \"none\" reads once); not turns it round (a text that must disappear). A failed assertion is isError with code assertion_failed and expected, and received inside the error's detail envelope. kind is one of the enum (docs/protocol.md, assert); the kinds that look at an element take target.",
		narrow: func(s *jsonschema.Schema, _ Options) {
			if k, ok := s.Properties["kind"]; ok {
				for _, kind := range transport.AssertKinds {
					k.Enum = append(k.Enum, kind)
				}
			}
		}},
	{name: "browser_screenshot", op: transport.OpScreenshot, page: true, store: true, image: screenshotImage,
		description: "A redacted screenshot of the tab's viewport (password fields, fields a secret was typed into and the redaction rules masked), kept in the server's --artifacts store. Returns the redaction proof and the artifact's path and sha256, and the PNG as an image only when the masking is proven; an unproven one fails redaction_not_proven and nothing is kept. The image is page content, untrusted like the envelope's."},
	{name: "browser_download", op: transport.OpDownload, page: true, store: true,
		description: "Click an element whose click starts a download (by ref or locator, as browser_act) and keep the file in the server's --artifacts store. Returns the artifact's path, sha256 and size, the suggested file name and the URL it came from (origin and path), never the bytes. A download from an origin outside the session's is refused (egress_denied)."},
	{name: "browser_export", narrow: narrowExport, local: (*Server).export,
		description: "The session's calls that succeeded, in order, as a scenario file v1 that `fastbrowser run` replays on a fresh browser: navigations, acts, typed secrets, tab changes and assertions (reads, outlines, screenshots and downloads are left out; a failed call never goes in). An element named by ref is written by role and accessible name; a secret stays {\"env\": NAME}, so the replay needs that variable set. Returns {file, operations, warnings (what may not replay as recorded)} inside the untrusted envelope: the file names elements as the page named them. Works after browser_close too."},
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

// observeAnswer is browser_observe's result: the observe result without its node tree, whose
// refs and names the outline text already holds in far fewer tokens. Nodes shadows the
// embedded tree and is never set, so "nodes" is left out.
type observeAnswer struct {
	*transport.ObserveResult
	Nodes []transport.OutlineNode `json:"nodes,omitempty"`
}

func withoutNodes(r transport.Result) any {
	if ob, ok := r.(*transport.ObserveResult); ok {
		return observeAnswer{ObserveResult: ob}
	}
	return r
}
