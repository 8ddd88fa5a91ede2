package worker

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"strconv"

	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/dom"
	cdpruntime "github.com/mafredri/cdp/protocol/runtime"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/transport"
)

// The bridge to locate.js: the match and the request as JSON data (never script built from
// what the caller wrote), elements as handles in a session's isolated world.

//go:embed locate.js
var locateJS string

// DefaultTestIDAttribute is the attribute a testId locator compares when the worker's
// Options name no other (Playwright's default).
const DefaultTestIDAttribute = "data-testid"

// jsMatch is a transport.TextMatch as locate.js reads it.
type jsMatch struct {
	String string `json:"string,omitempty"`
	Exact  bool   `json:"exact,omitempty"`
	Regex  string `json:"regex,omitempty"`
	Flags  string `json:"flags,omitempty"`
}

func toJSMatch(m *transport.TextMatch, exact bool) *jsMatch {
	if m == nil {
		return nil
	}
	if m.IsRegex() {
		return &jsMatch{Regex: m.Regex, Flags: m.Flags}
	}
	return &jsMatch{String: m.String, Exact: exact}
}

// jsReq is locate.js's first argument.
type jsReq struct {
	Op    string   `json:"op"`
	Kind  string   `json:"kind,omitempty"`
	Match *jsMatch `json:"match,omitempty"`
	Attr  string   `json:"attr,omitempty"`
	ID    string   `json:"id,omitempty"`
	Max   int      `json:"max,omitempty"`
	N     int      `json:"n,omitempty"`
}

// findReq is the find request for a target looked for by anything but ref and role.
func (w *Worker) findReq(tg transport.Target) jsReq {
	exact := tg.IsExact()
	r := jsReq{Op: "find", Kind: tg.Kind(), Max: budgets.LocatorMatches}
	switch r.Kind {
	case transport.LocateText:
		r.Match = toJSMatch(tg.Text, exact)
	case transport.LocateLabel:
		r.Match = toJSMatch(tg.Label, exact)
	case transport.LocatePlaceholder:
		r.Match = toJSMatch(tg.Placeholder, exact)
	case transport.LocateAltText:
		r.Match = toJSMatch(tg.AltText, exact)
	case transport.LocateTitle:
		r.Match = toJSMatch(tg.Title, exact)
	case transport.LocateTestID:
		r.Attr, r.ID = w.testIDAttr, tg.TestID
		if r.Attr == "" {
			r.Attr = DefaultTestIDAttribute
		}
	}
	return r
}

// errLocatorScript: locate.js failed in the page, which for a valid request means a regex
// RE2 accepted and JavaScript does not.
var errLocatorScript = errors.New("locator script failed")

// callLocate runs locate.js in a session's isolated world with req and the elements, and
// returns its result: by value into out, or, with out nil, as a handle in the object group
// (find's array).
func callLocate(ctx context.Context, c *cdp.Client, world cdpruntime.ExecutionContextID, group string, req jsReq, objs []cdpruntime.RemoteObjectID, out any) (cdpruntime.RemoteObject, error) {
	raw, err := json.Marshal(req)
	if err != nil {
		return cdpruntime.RemoteObject{}, err
	}
	args := make([]cdpruntime.CallArgument, 0, 1+len(objs))
	args = append(args, cdpruntime.CallArgument{Value: raw})
	for i := range objs {
		args = append(args, cdpruntime.CallArgument{ObjectID: &objs[i]})
	}
	reply, err := c.Runtime.CallFunctionOn(ctx, cdpruntime.NewCallFunctionOnArgs(locateJS).
		SetExecutionContextID(world).SetArguments(args).SetReturnByValue(out != nil).SetSilent(true).SetObjectGroup(group))
	if err != nil {
		return cdpruntime.RemoteObject{}, err
	}
	if reply.ExceptionDetails != nil {
		return cdpruntime.RemoteObject{}, errLocatorScript
	}
	if out != nil {
		return reply.Result, json.Unmarshal(reply.Result.Value, out)
	}
	return reply.Result, nil
}

// elementsOf lists the element handles of an array handle, in index order (in the array's
// object group).
func elementsOf(ctx context.Context, c *cdp.Client, arr cdpruntime.RemoteObject) ([]cdpruntime.RemoteObjectID, error) {
	if arr.ObjectID == nil {
		return nil, nil
	}
	props, err := c.Runtime.GetProperties(ctx, cdpruntime.NewGetPropertiesArgs(*arr.ObjectID).SetOwnProperties(true))
	if err != nil {
		return nil, err
	}
	out := make([]cdpruntime.RemoteObjectID, len(props.Result))
	n := 0
	for _, p := range props.Result {
		i, err := strconv.Atoi(p.Name)
		if err != nil || i < 0 || i >= len(out) || p.Value == nil || p.Value.ObjectID == nil {
			continue // length, and anything that is not an element
		}
		out[i] = *p.Value.ObjectID
		n = max(n, i+1)
	}
	return out[:n], nil
}

// inWorld resolves a node into a session's isolated world (the world of its main frame),
// where the locate.js calls that compare it with others run, in the object group. A node of
// a frame the world cannot reach (a cross-origin frame in the same process) fails.
func inWorld(ctx context.Context, c *cdp.Client, world cdpruntime.ExecutionContextID, group string, b dom.BackendNodeID) (cdpruntime.RemoteObjectID, error) {
	return resolveNode(ctx, c, dom.NewResolveNodeArgs().SetBackendNodeID(b).SetExecutionContextID(world).SetObjectGroup(group))
}
