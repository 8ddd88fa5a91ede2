package mcpserver

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"slices"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/textclip"
)

// confirmInput is the id of the one input a confirmation asks for.
const confirmInput = "confirm"

// confirmForm is the form a confirmation shows: no field, only accept, decline or cancel.
var confirmForm = map[string]any{"type": "object", "properties": map[string]any{}}

// confirm decides whether a call whose operation mutates runs (--confirm-mutations): nil
// when the user accepted exactly this call; else what to answer instead. A first call gets
// an input-required result holding the prompt: the SDK asks the client with it (the client
// itself on protocol 2026-07-28, through elicitation/create before that) and calls the tool
// again with the answer and the request state. The state is single-use and bound to this
// connection and these arguments, so an answer the client made up, or one given for another
// call, is refused and runs nothing.
func (s *Server) confirm(req *mcp.CallToolRequest, op transport.Operation, c call) *mcp.CallToolResult {
	name := op.OpName()
	digest, err := confirmDigest(op, c.session)
	if err != nil {
		return s.refused(name, transport.NewError(name, transport.PhaseValidate, transport.CodeInternal, transport.RetryNever, transport.NotAttempted, "the call could not be described for confirmation"))
	}
	if p := req.Params; len(p.InputResponses) > 0 || p.RequestState != "" {
		return s.answered(name, p, c.task, digest)
	}
	caps := req.ClientCapabilities()
	if caps == nil || caps.Elicitation == nil || (caps.Elicitation.Form == nil && caps.Elicitation.URL != nil) {
		return s.refused(name, transport.Invalid(name, "capabilities.elicitation",
			"the server was started with --confirm-mutations: %s asks the user first through MCP elicitation (form mode), and this client does not support it; nothing ran", name))
	}
	return &mcp.CallToolResult{
		InputRequests: mcp.InputRequestMap{confirmInput: &mcp.ElicitParams{Mode: "form", Message: s.prompt(op, c), RequestedSchema: confirmForm}},
		RequestState:  s.confirms.ask(c.task, digest),
	}
}

// unowned asks the host, with a read that changes nothing (listTabs), whether the call's
// session is one this connection may use: the user is only asked about a call that could
// run, never about one on another connection's (or an ended, unknown) session, which is
// refused at once with the host's own error. Any other failure of the read is the call's to
// meet after the prompt.
func (s *Server) unowned(ctx context.Context, name string, c call) *mcp.CallToolResult {
	_, err := s.h.Handle(transport.WithOwner(ctx, transport.Owner{Session: c.session, Task: c.task}), &transport.ListTabs{}, nil)
	var oe *transport.OperationError
	if !errors.As(err, &oe) {
		return nil
	}
	switch oe.Code {
	case transport.CodeSessionNotFound, transport.CodeSessionNotOwned, transport.CodeSessionExpired, transport.CodeSessionEnded:
		e := *oe
		e.Operation = name
		return s.refused(name, &e)
	}
	return nil
}

// answered is the call again with the user's answer: it runs (nil) only on accept of a
// prompt this server made for it.
func (s *Server) answered(name string, p *mcp.CallToolParamsRaw, task, digest string) *mcp.CallToolResult {
	if !s.confirms.take(p.RequestState, task, digest) {
		return s.refused(name, transport.Invalid(name, "requestState",
			"an answer to a confirmation this server did not ask for this call, or already used: call the tool again to be asked"))
	}
	answer, _ := p.InputResponses[confirmInput].(*mcp.ElicitResult)
	switch {
	case answer == nil:
		return s.refused(name, transport.Invalid(name, "inputResponses.confirm", "expected the answer to the confirmation"))
	case answer.Action == "accept":
		return nil
	case answer.Action == "decline":
		return s.refused(name, transport.NewError(name, transport.PhaseValidate, transport.CodeCancelled, transport.RetryNever, transport.NotAttempted,
			"the user declined the %s: nothing ran", name))
	case answer.Action == "cancel":
		return s.refused(name, transport.NewError(name, transport.PhaseValidate, transport.CodeCancelled, transport.RetryNever, transport.NotAttempted,
			"the user dismissed the confirmation of the %s: nothing ran", name))
	default:
		return s.refused(name, transport.Invalid(name, "inputResponses.confirm.action", "expected accept, decline or cancel"))
	}
}

// confirmDigest names one call: its session and its operation as sent.
func confirmDigest(op transport.Operation, session string) (string, error) {
	b, err := json.Marshal(op)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	h.Write([]byte(session + "\x00" + op.OpName() + "\x00"))
	h.Write(b)
	return hex.EncodeToString(h.Sum(nil)), nil
}

// confirmations holds the prompts asked and not yet answered, and what the connections'
// outlines said each ref is, so a prompt can name the element a ref stands for.
type confirmations struct {
	mu      sync.Mutex
	pending map[string]pendingConfirm // by request state
	order   []string                  // request states, oldest first
	names   map[string]*outlineNames  // by session id
}

type pendingConfirm struct{ task, digest string }

// outlineNames is what the session's browser_observe results said its refs are. Ref numbers
// are issued once per worker (worker/refs.go), so a ref names one element for good.
type outlineNames struct {
	task string
	refs map[string]element
}

type element struct{ role, name string }

func newConfirmations() *confirmations {
	return &confirmations{pending: map[string]pendingConfirm{}, names: map[string]*outlineNames{}}
}

// ask records a prompt for the call and returns its request state.
func (cs *confirmations) ask(task, digest string) string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	state := hex.EncodeToString(b[:])
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if len(cs.order) >= budgets.MCPConfirmPending {
		delete(cs.pending, cs.order[0])
		cs.order = cs.order[1:]
	}
	cs.pending[state] = pendingConfirm{task: task, digest: digest}
	cs.order = append(cs.order, state)
	return state
}

// take reports whether state is a prompt asked for this call on this connection, and
// forgets it: an answer is used once.
func (cs *confirmations) take(state, task, digest string) bool {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	p, ok := cs.pending[state]
	if !ok || p.task != task {
		return false
	}
	delete(cs.pending, state)
	cs.order = slices.DeleteFunc(cs.order, func(s string) bool { return s == state })
	return p.digest == digest
}

// learn keeps the refs of an observe result of the session.
func (cs *confirmations) learn(session, task string, result transport.Result) {
	ob, ok := result.(*transport.ObserveResult)
	if !ok {
		return
	}
	cs.mu.Lock()
	defer cs.mu.Unlock()
	n := cs.names[session]
	if n == nil {
		n = &outlineNames{task: task, refs: map[string]element{}}
		cs.names[session] = n
	}
	var walk func([]transport.OutlineNode)
	walk = func(nodes []transport.OutlineNode) {
		for _, node := range nodes {
			if node.Ref != "" && len(n.refs) < budgets.SessionRefs {
				n.refs[node.Ref] = element{role: node.Role, name: textclip.Clip(node.Name, promptTextBytes)}
			}
			walk(node.Children)
		}
	}
	walk(ob.Nodes)
}

// element is what an observe of the session said ref is.
func (cs *confirmations) element(session, ref string) (element, bool) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if n := cs.names[session]; n != nil {
		e, ok := n.refs[ref]
		return e, ok
	}
	return element{}, false
}

// forget drops what the ended connection's task left: its prompts and its sessions' refs.
func (cs *confirmations) forget(task string) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	for state, p := range cs.pending {
		if p.task == task {
			delete(cs.pending, state)
		}
	}
	cs.order = slices.DeleteFunc(cs.order, func(s string) bool { _, ok := cs.pending[s]; return !ok })
	for session, n := range cs.names {
		if n.task == task {
			delete(cs.names, session)
		}
	}
}
