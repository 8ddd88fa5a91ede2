package transport

// The published operations of protocol v1 that exist so far. Each request type names its
// result type through Request[R], so Dispatch's result type follows from the request type.
// The set is closed: only this package can add an operation (newResult is unexported).

// Operation is any protocol v1 request.
type Operation interface {
	OpName() string
	// Mutates says whether the operation may change the page, which decides the
	// mutationState of a call that fails after dispatch.
	Mutates() bool
	// Validate refuses a malformed request (invalid_request with the field path) before
	// anything is attempted. Policy checks are the runtime's and the worker's.
	Validate() error
	// Tabs returns pointers to every tab handle the request names, so the runtime can
	// translate its opaque handles to worker target IDs in place.
	TabRefs() []*string
	newResult() Result
}

// Result is any operation's result. Every result embeds Egress.
type Result interface {
	// TabRefs returns pointers to every tab handle the result carries.
	TabRefs() []*string
	egress() *Egress
}

// Request ties a request type to its result type.
type Request[R any] interface {
	OpName() string
	Validate() error
	resultOf() R
}

// Op names.
const (
	OpNavigate  = "navigate"
	OpReload    = "reload"
	OpRead      = "read"
	OpAssert    = "assert"
	OpListTabs  = "listTabs"
	OpSelectTab = "selectTab"
	OpCloseTab  = "closeTab"
	OpClose     = "close"
)

// NewOperation returns a zero request of the named op, for decoding a frame.
func NewOperation(op string) (Operation, bool) {
	switch op {
	case OpNavigate:
		return &Navigate{}, true
	case OpReload:
		return &Reload{}, true
	case OpRead:
		return &Read{}, true
	case OpAssert:
		return &Assert{}, true
	case OpListTabs:
		return &ListTabs{}, true
	case OpSelectTab:
		return &SelectTab{}, true
	case OpCloseTab:
		return &CloseTab{}, true
	case OpClose:
		return &Close{}, true
	case OpObserve:
		return &Observe{}, true
	case OpAct:
		return &Act{}, true
	case OpWaitPopup:
		return &WaitPopup{}, true
	case OpNarrowOriginPolicy:
		return &NarrowOriginPolicy{}, true
	case OpCaptureEvidence:
		return &CaptureEvidence{}, true
	}
	return nil, false
}

// OpNames lists the implemented operations, in documentation order.
var OpNames = []string{OpObserve, OpAct, OpRead, OpAssert, OpNavigate, OpReload, OpListTabs, OpSelectTab, OpWaitPopup, OpCloseTab, OpCaptureEvidence, OpNarrowOriginPolicy, OpClose}

// NewResult returns a zero result for op, for decoding a response.
func NewResult(op Operation) Result { return op.newResult() }

func tabs(ps ...*string) []*string {
	out := ps[:0:0]
	for _, p := range ps {
		if *p != "" {
			out = append(out, p)
		}
	}
	return out
}

// --- navigate ---

// Navigate loads an http(s) URL in a tab (the selected tab when Tab is empty).
type Navigate struct {
	Tab string `json:"tab,omitempty"`
	URL string `json:"url" required:"true"`
}

// NavigateResult describes the document the navigation committed.
type NavigateResult struct {
	Egress
	Tab        string `json:"tab"`
	URL        string `json:"url"`
	Title      string `json:"title"`
	Status     int    `json:"status"`
	DocumentID string `json:"documentId"`
}

func (Navigate) OpName() string              { return OpNavigate }
func (Navigate) Mutates() bool               { return true }
func (r *Navigate) TabRefs() []*string       { return tabs(&r.Tab) }
func (Navigate) newResult() Result           { return &NavigateResult{} }
func (Navigate) resultOf() NavigateResult    { return NavigateResult{} }
func (r *NavigateResult) TabRefs() []*string { return tabs(&r.Tab) }

// --- reload ---

// Reload reloads a tab's document.
type Reload struct {
	Tab string `json:"tab,omitempty"`
}

func (Reload) OpName() string           { return OpReload }
func (Reload) Mutates() bool            { return true }
func (r *Reload) TabRefs() []*string    { return tabs(&r.Tab) }
func (Reload) newResult() Result        { return &NavigateResult{} }
func (Reload) resultOf() NavigateResult { return NavigateResult{} }

// --- read ---

// Read returns bounded visible text, title and URL. Never input values, hidden text, HTML,
// frame contents or script output.
type Read struct {
	Tab string `json:"tab,omitempty"`
}

// ReadResult is what a person would see of the page's text.
type ReadResult struct {
	Egress
	Tab        string `json:"tab"`
	URL        string `json:"url"`
	Title      string `json:"title"`
	Text       string `json:"text"`
	Truncated  bool   `json:"truncated"`
	DocumentID string `json:"documentId"`
}

func (Read) OpName() string              { return OpRead }
func (Read) Mutates() bool               { return false }
func (r *Read) TabRefs() []*string       { return tabs(&r.Tab) }
func (Read) newResult() Result           { return &ReadResult{} }
func (Read) resultOf() ReadResult        { return ReadResult{} }
func (r *ReadResult) TabRefs() []*string { return tabs(&r.Tab) }

// --- assert ---

// Assertion kinds.
const (
	AssertURL           = "url"
	AssertOrigin        = "origin"
	AssertTitle         = "title"
	AssertTitleContains = "titleContains"
	AssertTextContains  = "textContains"
)

// Wait modes for assert.
const (
	WaitBounded = "bounded" // poll within the read/assertion budget
	WaitNone    = "none"    // one read
)

// Assert checks one read-only fact about a tab.
type Assert struct {
	Tab   string `json:"tab,omitempty"`
	Kind  string `json:"kind" required:"true"`
	Value string `json:"value" required:"true"`
	Wait  string `json:"wait,omitempty"`
}

// AssertResult records a passed assertion. It never echoes page text.
type AssertResult struct {
	Egress
	Tab      string `json:"tab"`
	Kind     string `json:"kind"`
	Passed   bool   `json:"passed"`
	Attempts int    `json:"attempts"`
}

func (Assert) OpName() string              { return OpAssert }
func (Assert) Mutates() bool               { return false }
func (r *Assert) TabRefs() []*string       { return tabs(&r.Tab) }
func (Assert) newResult() Result           { return &AssertResult{} }
func (Assert) resultOf() AssertResult      { return AssertResult{} }
func (r *AssertResult) TabRefs() []*string { return tabs(&r.Tab) }

// --- listTabs ---

// TabSelect picks one tab of a listing: by exact origin (must match exactly one) or index.
type TabSelect struct {
	Kind   string `json:"kind" required:"true"` // "origin" | "index"
	Origin string `json:"origin,omitempty"`
	Index  *int   `json:"index,omitempty"`
}

// ListTabs lists the session's tabs whose origin the policy allows, in a deterministic order
// (creation order). It never changes the selection.
type ListTabs struct {
	Select *TabSelect `json:"select,omitempty"`
}

// TabInfo is one listed tab.
type TabInfo struct {
	Tab      string `json:"tab"`
	URL      string `json:"url"`
	Title    string `json:"title"`
	Selected bool   `json:"selected"`
}

// ListTabsResult lists tabs; with a select predicate, Tabs holds only the chosen tab.
type ListTabsResult struct {
	Egress
	Tabs     []TabInfo `json:"tabs"`
	Selected string    `json:"selected"`
}

func (ListTabs) OpName() string           { return OpListTabs }
func (ListTabs) Mutates() bool            { return false }
func (*ListTabs) TabRefs() []*string      { return nil }
func (ListTabs) newResult() Result        { return &ListTabsResult{} }
func (ListTabs) resultOf() ListTabsResult { return ListTabsResult{} }
func (r *ListTabsResult) TabRefs() []*string {
	ps := make([]*string, 0, len(r.Tabs)+1)
	for i := range r.Tabs {
		ps = append(ps, &r.Tabs[i].Tab)
	}
	return append(ps, tabs(&r.Selected)...)
}

// --- selectTab ---

// SelectTab makes a tab the selected one; it is the only thing that changes selection.
type SelectTab struct {
	Tab string `json:"tab" required:"true"`
}

// SelectTabResult names the newly selected tab.
type SelectTabResult struct {
	Egress
	SelectedTab string `json:"selectedTab"`
	URL         string `json:"url"`
	Title       string `json:"title"`
}

func (SelectTab) OpName() string              { return OpSelectTab }
func (SelectTab) Mutates() bool               { return false }
func (r *SelectTab) TabRefs() []*string       { return tabs(&r.Tab) }
func (SelectTab) newResult() Result           { return &SelectTabResult{} }
func (SelectTab) resultOf() SelectTabResult   { return SelectTabResult{} }
func (r *SelectTabResult) TabRefs() []*string { return tabs(&r.SelectedTab) }

// --- closeTab ---

// CloseTab closes one tab. Closing the selected tab leaves no tab selected until a
// selectTab: only selectTab changes the selection.
type CloseTab struct {
	Tab string `json:"tab" required:"true"`
}

// CloseTabResult names the closed tab and the selection after it.
type CloseTabResult struct {
	Egress
	Closed   string `json:"closed"`
	Selected string `json:"selected"`
}

func (CloseTab) OpName() string              { return OpCloseTab }
func (CloseTab) Mutates() bool               { return true }
func (r *CloseTab) TabRefs() []*string       { return tabs(&r.Tab) }
func (CloseTab) newResult() Result           { return &CloseTabResult{} }
func (CloseTab) resultOf() CloseTabResult    { return CloseTabResult{} }
func (r *CloseTabResult) TabRefs() []*string { return tabs(&r.Closed, &r.Selected) }

// --- close ---

// Close ends the session: the worker disposes its browser context and exits after replying.
type Close struct{}

// CloseResult confirms the close.
type CloseResult struct {
	Egress
	Closed bool `json:"closed"`
}

func (Close) OpName() string            { return OpClose }
func (Close) Mutates() bool             { return true }
func (*Close) TabRefs() []*string       { return nil }
func (Close) newResult() Result         { return &CloseResult{} }
func (Close) resultOf() CloseResult     { return CloseResult{} }
func (*CloseResult) TabRefs() []*string { return nil }

// OperationContext is the optional per-call context narrowOriginPolicy returns: the
// effective origins for the call, a non-empty subset of the session base.
type OperationContext struct {
	Origins []string `json:"origins" required:"true"`
}
