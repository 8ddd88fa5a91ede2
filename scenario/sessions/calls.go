package sessions

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/transport"
)

// Calls is the history of sessions driven by single protocol calls rather than by `session
// do`: `fastbrowser mcp`'s (runtime/mcpserver, browser_export). Each call that succeeded
// and is exported becomes an Entry by the functions do uses (exportOp, refWords, withWords),
// and Export is the same Export `session export` runs, so both write one kind of file.
// A session's history is exported only to the task that opened it, as the registry lets
// only that task call it. Calls keeps no page text and no secret: an {"env"} text stays
// {"env"}, a literal is kept as typed, as in a session's history.
type Calls struct {
	dir      string // where an export's upload paths resolve: the server's working directory
	viewport string // the sessions' viewport (WxH, "" for the browser's own): the files hold it

	mu       sync.Mutex
	sessions map[string]*callHistory
	order    []string // session ids, oldest opened first
}

// NewCalls keeps histories whose exports resolve relative paths against dir and lay pages
// out at viewport (WxH; "": the browser's own), the size every session was opened with.
func NewCalls(dir, viewport string) *Calls {
	return &Calls{dir: dir, viewport: viewport, sessions: map[string]*callHistory{}}
}

// callHistory is one session's: what Export needs of it, and what names its refs and tabs.
type callHistory struct {
	task    string
	ended   bool
	rec     Record
	entries []Entry
	bytes   int  // the entries' exported forms, together
	full    bool // past budgets.ScenarioFileSize: no file that long would validate
	page    pageView
	refs    refBook
	// tabs: a tab handle the session saw → the scenario file's reference to it (the initial
	// tab, or the popup an exported waitPopup returned).
	tabs    map[string]any
	popups  int
	initial bool     // the initial tab's handle is known
	unnamed []string // calls that named a tab the file cannot refer to
}

// Record is told each call of owner that succeeded (op with its result); exported says it
// goes into the file (a navigation or mutation, an assertion), else it only teaches the
// history refs (an outline) and tabs. openSession starts a history, closeSession ends it.
func (c *Calls) Record(owner transport.Owner, op transport.Operation, res transport.Result, exported bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch o := op.(type) {
	case *transport.OpenSession:
		if r, ok := res.(*transport.OpenSessionResult); ok {
			c.open(o.Task, r)
		}
		return
	case *transport.CloseSession:
		if h := c.sessions[o.Session]; h != nil && h.task == o.Task {
			h.ended = true
		}
		return
	}
	h := c.sessions[owner.Session]
	if h == nil || h.task != owner.Task {
		return
	}
	h.seeTab(res)
	if ob, ok := res.(*transport.ObserveResult); ok {
		v := pageView{Page: Page{Tab: ob.Tab, URL: ob.URL, Title: ob.Title}, refs: map[string]transport.OutlineNode{}, names: map[roleName]int{}, doc: ob.DocumentID}
		v.index(ob.Nodes)
		h.page, h.refs = v, h.refs.add(v)
	}
	if exported && !h.full {
		h.add(op, res)
	}
}

func (c *Calls) open(task string, r *transport.OpenSessionResult) {
	if len(c.order) >= budgets.SessionCallHistories {
		drop := 0
		for i, id := range c.order {
			if c.sessions[id].ended {
				drop = i
				break
			}
		}
		delete(c.sessions, c.order[drop])
		c.order = slices.Delete(c.order, drop, drop+1)
	}
	c.sessions[r.Session] = &callHistory{task: task, refs: refBook{}, tabs: map[string]any{},
		rec: Record{ID: r.Session, Created: time.Now(), State: StateOpen, Options: Options{AllowedOrigins: r.AllowedOrigins, Dir: c.dir, Viewport: c.viewport}}}
	c.order = append(c.order, r.Session)
}

// seeTab learns the initial tab: the tab of the first result that names one before any
// popup was waited for (a session starts with one tab, selected).
func (h *callHistory) seeTab(res transport.Result) {
	if h.initial || h.popups > 0 {
		return
	}
	b, _ := json.Marshal(res)
	var probe struct {
		Tab string `json:"tab"`
	}
	if json.Unmarshal(b, &probe) == nil && probe.Tab != "" {
		h.tabs[probe.Tab] = map[string]string{"source": "initial", "target": "selected"}
		h.initial = true
	}
}

// add keeps op as an Entry: its scenario-file form, refs named by role and accessible name
// (exportOp) and, for a by-ref click, typing or pick, the act in words do keeps it as.
func (h *callHistory) add(op transport.Operation, res transport.Result) {
	index := len(h.entries)
	fileForm, id := h.fileForm(op, index)
	var receipt *transport.Receipt
	if r, ok := res.(*transport.ActResult); ok {
		receipt = &r.Receipt
	}
	e := Entry{Index: index, Status: StatusDone, At: time.Now()}
	act, isAct := op.(*transport.Act)
	var uploads []string
	if isAct {
		uploads = act.Files
	}
	e.Export, e.NotUnique, e.UnresolvedRefs = exportOp(fileForm, h.page, h.refs, receipt, uploads)
	e.Upload = len(uploads) > 0
	if isAct && act.Target.Ref != "" {
		if w, vs, ok := refWords(receipt, requestText(fileForm), "", nil); ok {
			defaults := map[string]string{}
			e.Export = withWords(e.Export, w, vs, defaults)
			if len(defaults) > 0 {
				e.ExportVariables = defaults
			}
		}
	}
	if popup, ok := res.(*transport.WaitPopupResult); ok && popup.Popup != "" {
		h.tabs[popup.Popup] = map[string]any{"source": "operation", "operation": map[string]string{"id": id}, "result": "popup"}
	}
	if h.bytes += len(e.Export); h.bytes > budgets.ScenarioFileSize {
		h.full = true
		return
	}
	h.entries = append(h.entries, e)
}

// fileForm is op as a scenario file writes it: {"op", "request"}, the tab handle it names
// written as the file's reference to that tab; a waitPopup gets an id ("popup-N") that a
// later call on its popup refers to.
func (h *callHistory) fileForm(op transport.Operation, index int) (json.RawMessage, string) {
	handle := transport.TabOf(op)
	field, _ := transport.HandleField(op)
	req := map[string]any{}
	b, _ := json.Marshal(transport.WithTab(op, ""))
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	_ = dec.Decode(&req)
	delete(req, field)
	if handle != "" {
		if ref, ok := h.tabs[handle]; ok {
			req[field] = ref
		} else {
			h.unnamed = append(h.unnamed, fmt.Sprintf("call %d (%s) names tab %s, which is neither the session's first tab nor a popup an exported browser_wait_popup returned", index, op.OpName(), handle))
			req[field] = handle
		}
	}
	out := map[string]any{"op": op.OpName(), "request": req}
	id := ""
	if op.OpName() == transport.OpWaitPopup {
		h.popups++
		id = fmt.Sprintf("popup-%d", h.popups)
		out["id"] = id
	}
	raw, _ := json.Marshal(out)
	return raw, id
}

// Export is the scenario file of owner's session: its exported calls in order, by Export,
// validated as `fastbrowser validate` would. id is the scenario id ("": "session-" + the
// session id). Refusals are protocol errors: the session is another task's or unknown, or
// the file could not be made.
func (c *Calls) Export(owner transport.Owner, id string) (*Exported, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	h := c.sessions[owner.Session]
	switch {
	case h == nil:
		return nil, transport.NewError("", transport.PhaseValidate, transport.CodeSessionNotFound, transport.RetryNever, transport.NotAttempted,
			"no session %s was opened by this server (or it is one of more than %d opened since, whose history is no longer kept)", owner.Session, budgets.SessionCallHistories)
	case h.task != owner.Task:
		return nil, transport.NewError("", transport.PhaseValidate, transport.CodeSessionNotOwned, transport.RetryNever, transport.NotAttempted,
			"session %s was opened by another connection", owner.Session)
	case h.full:
		return nil, transport.NewError("", transport.PhaseValidate, transport.CodeBudgetExceeded, transport.RetryNever, transport.NotAttempted,
			"the session's exported calls passed %d bytes, more than a scenario file may hold", budgets.ScenarioFileSize)
	case len(h.unnamed) > 0:
		return nil, transport.Invalid("", "session", "the file cannot name every tab the session used: %s", strings.Join(h.unnamed, "; "))
	}
	x, err := Export(h.rec, h.entries, ExportOptions{ID: id})
	if err != nil {
		code, msg := transport.CodeInternal, err.Error()
		if e, ok := err.(*Error); ok {
			msg = e.Message
			if e.Code() != CodeFailed {
				code = transport.CodeInvalidRequest
			}
		}
		path := ""
		if code == transport.CodeInvalidRequest && id != "" && strings.HasPrefix(msg, "scenario id") {
			path = "request.id"
		}
		return nil, transport.NewError("", transport.PhaseValidate, code, transport.RetryNever, transport.NotAttempted, "%s", msg).WithPath(path)
	}
	return x, nil
}
