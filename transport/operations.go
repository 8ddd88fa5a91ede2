package transport

import (
	"reflect"
	"sync"
	"time"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/transport/strictjson"
)

// The operation table: the one place that says what each protocol v1 operation is. Its
// request type declares the result type (by embedding op[Request, Result]) and marks the
// fields that hold tab handles (`handle:"tab"`); everything else every layer needs to know
// is its row below. NewOperation, the Conn's deadlines, the worker's dispatch (worker
// handlers register by request type and a test checks every row has one), the runtime's
// hooks (registered the same way, runtime/hooks.go: a test checks every Runtime row is
// answered and every artifact payload committed) and scenario file requests all come from
// here, and so, by `go generate ./...` (scenario/internal/gen), do docs/protocol.schema.json,
// scenario/schema.json's op list and request shapes, and the operation tables of
// docs/protocol.md and docs/scenarios.md. Adding an operation: its types and a row here, its
// worker handler (or runtime answer, and any runtime hook it needs), `go generate ./...` (a
// test fails until it has run), its prose in docs/protocol.md (and, InFiles, the
// descriptions and cross-field rules of its request in scenario/schema.skeleton.json and any
// bound or enum Validate checks in scenario/internal/gen/rules.go), a test.

// Operation is any protocol v1 request.
type Operation interface {
	OpName() string
	// Mutates says whether the operation may change the page, which decides the
	// mutationState of a call that fails after dispatch.
	Mutates() bool
	// Validate refuses a malformed request (invalid_request with the field path) before
	// anything is attempted. Policy checks are the runtime's and the worker's.
	Validate() error
	newResult() Result
}

// Result is any operation's result. Every result embeds Egress.
type Result interface {
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
	OpObserve            = "observe"
	OpAct                = "act"
	OpRead               = "read"
	OpAssert             = "assert"
	OpNavigate           = "navigate"
	OpReload             = "reload"
	OpListTabs           = "listTabs"
	OpSelectTab          = "selectTab"
	OpWaitPopup          = "waitPopup"
	OpCloseTab           = "closeTab"
	OpCaptureEvidence    = "captureEvidence"
	OpNarrowOriginPolicy = "narrowOriginPolicy"
	OpClose              = "close"
	OpScreenshot         = "screenshot"
	OpDownload           = "download"
)

// OpSpec is one row of the operation table.
type OpSpec struct {
	Name string
	// New returns a zero request, for decoding a frame (the constructor).
	New func() Operation
	// Mutates says whether the operation may change the page, which decides the
	// mutationState and retry of a call that fails after dispatch.
	Mutates bool
	// Deadline is how long the Conn waits for the answer to one call; request is the
	// call's request budget. Nil: the request budget.
	Deadline func(op Operation, request time.Duration) time.Duration
	// InFiles says scenario files may use the operation; its handle field, if any, is then
	// written as a tab reference (docs/scenarios.md "Tab references").
	InFiles bool
	// TabResult names the tab a scenario tab reference can take from the operation's
	// result ("" for none).
	TabResult string
	// NoFailureEvidence: a failure of the operation gets no failure evidence (there is no
	// page to show for it, or it is the evidence).
	NoFailureEvidence bool
	// Witness: the operation only looks (captureEvidence). Requests the policy refused and
	// dialogs answered since the previous operation stay for the next one to report, and
	// the policy in force stays.
	Witness bool
	// EndsSession: the operation closes the session; it runs even after the browser died
	// and never fails for refusals pending from earlier.
	EndsSession bool
	// Runtime: the runtime answers the operation itself, composing worker calls with a model
	// (task.go); a worker refuses it.
	Runtime bool
	// Host: the multi-session host answers the operation itself (hostops.go); it never
	// reaches a worker, and a single session refuses it.
	Host bool
	// Internal: a session's runtime sends the operation to its own worker (maskSecrets); a
	// parent of a session (runtime.Call, `serve`) cannot, and scenario files cannot name it.
	// Only a Server with ServerOptions.Internal (the worker's) accepts it.
	Internal bool
}

// within: the Conn waits for b's default (the worker applies b) plus the margin.
func within(b budgets.Budget) func(Operation, time.Duration) time.Duration {
	return func(Operation, time.Duration) time.Duration { return b.Default + budgets.ClientMargin }
}

// withinDefaultRequest: the operation's own budget ends it in the worker well inside the
// default request budget, which a per-call request budget does not change.
func withinDefaultRequest(Operation, time.Duration) time.Duration { return budgets.Request().Default }

// withinRequest: the worker bounds the whole operation by the request budget; the margin
// lets its own timeout answer first.
func withinRequest(_ Operation, request time.Duration) time.Duration {
	return request + budgets.ClientMargin
}

// table lists the operations in documentation order.
var table = []OpSpec{
	{Name: OpObserve, New: newOp[Observe], Deadline: withinDefaultRequest, InFiles: true},
	{Name: OpAct, New: newOp[Act], Mutates: true, Deadline: withinRequest, InFiles: true},
	{Name: OpRead, New: newOp[Read], Deadline: within(budgets.ReadWait()), InFiles: true},
	{Name: OpAssert, New: newOp[Assert], Deadline: assertDeadline, InFiles: true},
	{Name: OpNavigate, New: newOp[Navigate], Mutates: true, Deadline: within(budgets.Navigation()), InFiles: true},
	{Name: OpReload, New: newOp[Reload], Mutates: true, Deadline: within(budgets.Navigation()), InFiles: true},
	{Name: OpGoBack, New: newOp[GoBack], Mutates: true, Deadline: within(budgets.Navigation()), InFiles: true},
	{Name: OpGoForward, New: newOp[GoForward], Mutates: true, Deadline: within(budgets.Navigation()), InFiles: true},
	{Name: OpListTabs, New: newOp[ListTabs], InFiles: true, TabResult: "listedTab"},
	{Name: OpSelectTab, New: newOp[SelectTab], InFiles: true, TabResult: "selectedTab"},
	{Name: OpWaitPopup, New: newOp[WaitPopup], Deadline: withinDefaultRequest, InFiles: true, TabResult: "popup"},
	{Name: OpWait, New: newOp[Wait], Deadline: waitDeadline, InFiles: true},
	{Name: OpCloseTab, New: newOp[CloseTab], Mutates: true, InFiles: true},
	{Name: OpTask, New: newOp[Task], Mutates: true, Deadline: taskDeadline, InFiles: true, Runtime: true},
	{Name: OpExtract, New: newOp[Extract], Deadline: taskDeadline, InFiles: true, Runtime: true},
	{Name: OpBeginTask, New: newOp[BeginTask], Mutates: true, Runtime: true, NoFailureEvidence: true},
	{Name: OpRefreshTask, New: newOp[RefreshTask], Runtime: true, NoFailureEvidence: true},
	{Name: OpCancelTask, New: newOp[CancelTask], Runtime: true, NoFailureEvidence: true},
	{Name: OpFinishTask, New: newOp[FinishTask], Runtime: true, NoFailureEvidence: true},
	{Name: OpAttachEndpoint, New: newOp[AttachEndpoint], Runtime: true, NoFailureEvidence: true},
	{Name: OpScreenshot, New: newOp[Screenshot], Deadline: captureDeadline, InFiles: true, NoFailureEvidence: true},
	{Name: OpDownload, New: newOp[Download], Mutates: true, Deadline: downloadDeadline, InFiles: true},
	{Name: OpCaptureEvidence, New: newOp[CaptureEvidence], Deadline: captureDeadline, NoFailureEvidence: true, Witness: true},
	{Name: OpNarrowOriginPolicy, New: newOp[NarrowOriginPolicy], InFiles: true, NoFailureEvidence: true},
	{Name: OpClose, New: newOp[Close], Mutates: true, NoFailureEvidence: true, EndsSession: true},
	// A witness: it must leave the refusals, dialogs and policy of the call it precedes alone.
	{Name: OpMaskSecrets, New: newOp[MaskSecrets], NoFailureEvidence: true, Witness: true, Internal: true},
	{Name: OpOpenSession, New: newOp[OpenSession], Host: true, NoFailureEvidence: true},
	{Name: OpCloseSession, New: newOp[CloseSession], Mutates: true, Host: true, NoFailureEvidence: true},
	{Name: OpEndTask, New: newOp[EndTask], Mutates: true, Host: true, NoFailureEvidence: true},
	{Name: OpBatch, New: newOp[Batch], Mutates: true, Host: true},
}

// Ops returns the operation table, in documentation order.
func Ops() []OpSpec { return append([]OpSpec(nil), table...) }

// EvidenceOperations is the allowlist of captureEvidence's operation: the labels of what
// evidence can be for, every operation a session runs (the multi-session host's own are not
// a session's, nor the runtime's internal ones to its worker) but the one that ends the
// session (close), in documentation order. closeTab
// is one: it closes a tab, not the session. Derived from the table, never listed by hand.
func EvidenceOperations() []string { return append([]string(nil), evidenceOperations()...) }

var evidenceOperations = sync.OnceValue(func() []string {
	var names []string
	for _, s := range table {
		if !s.Host && !s.EndsSession && !s.Internal {
			names = append(names, s.Name)
		}
	}
	return names
})

// LookupOp returns the named operation's row.
func LookupOp(name string) (OpSpec, bool) {
	s, ok := index().byName[name]
	if !ok {
		return OpSpec{}, false
	}
	return *s, true
}

// SpecOf returns op's row.
func SpecOf(op Operation) OpSpec { return *specOfType(reflect.TypeOf(op)) }

// NewOperation returns a zero request of the named op, for decoding a frame.
func NewOperation(op string) (Operation, bool) {
	s, ok := index().byName[op]
	if !ok {
		return nil, false
	}
	return s.New(), true
}

// NewResult returns a zero result for op, for decoding a response.
func NewResult(op Operation) Result { return op.newResult() }

// deadlineFor is the transport deadline of one call of op under the request budget
// request (which bounds the calls without a budget of their own).
func DeadlineFor(op Operation, request time.Duration) time.Duration {
	if d := SpecOf(op).Deadline; d != nil {
		return d(op, request)
	}
	return request
}

type opIndex struct {
	byName map[string]*OpSpec
	byType map[reflect.Type]*OpSpec // request struct type → row
}

var index = sync.OnceValue(func() opIndex {
	ix := opIndex{byName: map[string]*OpSpec{}, byType: map[reflect.Type]*OpSpec{}}
	for i := range table {
		s := &table[i]
		ix.byName[s.Name] = s
		ix.byType[reflect.TypeOf(s.New()).Elem()] = s
	}
	return ix
})

// specOfType finds the row of a request type (a struct or a pointer to one). Every request
// type has a row: TestEveryRequestTypeHasARow.
func specOfType(t reflect.Type) *OpSpec {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return index().byType[t]
}

// op is embedded in every request type: op[Navigate, NavigateResult] makes Navigate an
// Operation whose result is a NavigateResult, named and described by its table row.
type op[Q any, R any] struct{}

func (op[Q, R]) OpName() string { return specOfType(reflect.TypeFor[Q]()).Name }
func (op[Q, R]) Mutates() bool  { return specOfType(reflect.TypeFor[Q]()).Mutates }
func (op[Q, R]) resultOf() R    { var r R; return r }
func (op[Q, R]) newResult() Result {
	return any(new(R)).(Result)
}

// newOp is a row's constructor for request type Q.
func newOp[Q any]() Operation { return any(new(Q)).(Operation) }

// --- navigate ---

// Navigate loads an http(s) URL in a tab (the selected tab when Tab is empty).
type Navigate struct {
	op[Navigate, NavigateResult]
	Tab string `json:"tab,omitempty" handle:"tab"`
	URL string `json:"url" required:"true"`
}

// NavigateResult describes the document the navigation committed.
type NavigateResult struct {
	Egress
	Tab        string `json:"tab" handle:"tab"`
	URL        string `json:"url"`
	Title      string `json:"title"`
	Status     int    `json:"status"`
	DocumentID string `json:"documentId"`
	// TLSVerified: the page is https and the egress proxy, which carries a session's trusted
	// CAs and client certificates, verified its host's certificate during the browser's life.
	// False (left out) means no such evidence, not a failed certificate.
	TLSVerified bool `json:"tlsVerified,omitempty"`
}

// --- reload ---

// Reload reloads a tab's document.
type Reload struct {
	op[Reload, NavigateResult]
	Tab string `json:"tab,omitempty" handle:"tab"`
}

// --- read ---

// Read returns bounded visible text, title and URL. Never input values, hidden text, HTML,
// frame contents or script output.
type Read struct {
	op[Read, ReadResult]
	Tab string `json:"tab,omitempty" handle:"tab"`
}

// ReadResult is what a person would see of the page's text.
type ReadResult struct {
	Egress
	Tab        string `json:"tab" handle:"tab"`
	URL        string `json:"url"`
	Title      string `json:"title"`
	Text       string `json:"text"`
	Truncated  bool   `json:"truncated"`
	DocumentID string `json:"documentId"`
}

// --- assert ---

// Assertion kinds.
const (
	AssertURL           = "url"
	AssertOrigin        = "origin"
	AssertTitle         = "title"
	AssertTitleContains = "titleContains"
	AssertTextContains  = "textContains"
	AssertStatus        = "status"    // the document's HTTP status, value "200"
	AssertPageClass     = "pageClass" // observe's page class, value "normal" | "login" | …
	AssertValue         = "value"     // a form field's current value (target); never a password's or a secret's
	AssertChecked       = "checked"   // a checkbox, radio or switch (target), value "true" | "false"
	AssertCount         = "count"     // how many elements the target's locator matches, value "3"
)

// AssertKinds lists the assertion kinds, in documentation order.
var AssertKinds = []string{AssertURL, AssertOrigin, AssertTitle, AssertTitleContains, AssertTextContains,
	AssertStatus, AssertPageClass, AssertValue, AssertChecked, AssertCount,
	AssertVisible, AssertHidden, AssertEnabled, AssertDisabled, AssertEditable, AssertFocused,
	AssertAttribute, AssertClass, AssertClassContains, AssertText, AssertValues, AssertStorage}

// Wait modes for assert.
const (
	WaitBounded = "bounded" // poll within the expect budget (or timeoutMs)
	WaitNone    = "none"    // one read
)

// WaitMode is assert's wait: WaitBounded or WaitNone; the zero value means WaitBounded.
// In JSON the field is left out for the default: an explicit "" is refused, like any
// other value that is not one of the two.
type WaitMode string

func (m *WaitMode) UnmarshalStrictJSON(raw []byte, path string) error {
	return strictjson.DecodeOneOf(raw, (*string)(m), path, WaitBounded, WaitNone)
}

// Assert checks one read-only fact about a tab.
type Assert struct {
	op[Assert, AssertResult]
	Tab  string `json:"tab,omitempty" handle:"tab"`
	Kind string `json:"kind" required:"true"`
	// Value is the expected value's string form, for a Go caller; on the wire it is
	// ValueMatch ("value": a string, or {"regex", "flags"} for text, url, title, attribute,
	// class and value). Normalize makes the two agree.
	Value      string      `json:"-"`
	ValueMatch *ValueMatch `json:"value,omitempty"`
	// Values is a list's expected texts (text: every match of the target, in order) or a
	// multi-select's selected values (values), each a string or a regex. [] (no option
	// selected) is a value; left out (nil) is none, and only that is omitted.
	Values ValueList `json:"values,omitzero"`
	// Name is the attribute an attribute assertion reads.
	Name string `json:"name,omitempty"`
	// IgnoreCase compares case-insensitively (text, attribute, url), as Playwright's option.
	IgnoreCase bool `json:"ignoreCase,omitempty"`
	// UseInnerText reads text's element text as innerText rather than textContent.
	UseInnerText bool `json:"useInnerText,omitempty"`
	// Storage is the key a storage assertion reads; JSONContains, instead of value, is JSON
	// the stored value (parsed as JSON) must contain.
	Storage      *StorageKey `json:"storage,omitempty"`
	JSONContains JSONValue   `json:"jsonContains,omitempty"`
	Wait         WaitMode    `json:"wait,omitempty"`
	// Not turns the assertion round: it holds while the fact does not (with wait
	// "bounded", until the fact stops holding: a text that must disappear).
	Not bool `json:"not,omitempty"`
	// TimeoutMs bounds a bounded wait (0: the expect budget's 5 s; at most its ceiling).
	TimeoutMs int `json:"timeoutMs,omitempty"`
	// Target is the element a kind looks at: textContains (its visible text), and every
	// kind that reads an element (required); count counts its matches (any locator but ref).
	Target *Target `json:"target,omitempty"`
	// Cell scopes textContains to one table cell.
	Cell *Cell `json:"cell,omitempty"`
}

// Cell names one table cell: the row that has a cell whose text is Row (else the one row
// with a cell containing it) and the column whose header text is Column, in Table (a
// table, grid or treegrid element) or, without it, in the page's one table that has such
// a column.
type Cell struct {
	Table  *Target `json:"table,omitempty"`
	Row    string  `json:"row" required:"true"`
	Column string  `json:"column" required:"true"`
}

// AssertResult records a passed assertion. It never echoes page text.
type AssertResult struct {
	Egress
	Tab      string `json:"tab" handle:"tab"`
	Kind     string `json:"kind"`
	Passed   bool   `json:"passed"`
	Attempts int    `json:"attempts"`
}

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
	op[ListTabs, ListTabsResult]
	Select *TabSelect `json:"select,omitempty"`
}

// TabInfo is one listed tab.
type TabInfo struct {
	Tab      string `json:"tab" handle:"tab"`
	URL      string `json:"url"`
	Title    string `json:"title"`
	Selected bool   `json:"selected"`
}

// ListTabsResult lists tabs; with a select predicate, Tabs holds only the chosen tab.
type ListTabsResult struct {
	Egress
	Tabs     []TabInfo `json:"tabs"`
	Selected string    `json:"selected" handle:"tab"`
}

// --- selectTab ---

// SelectTab makes a tab the selected one; it is the only thing that changes selection.
type SelectTab struct {
	op[SelectTab, SelectTabResult]
	Tab string `json:"tab" handle:"tab" required:"true"`
}

// SelectTabResult names the newly selected tab.
type SelectTabResult struct {
	Egress
	SelectedTab string `json:"selectedTab" handle:"tab"`
	URL         string `json:"url"`
	Title       string `json:"title"`
}

// --- closeTab ---

// CloseTab closes one tab. Closing the selected tab leaves no tab selected until a
// selectTab: only selectTab changes the selection.
type CloseTab struct {
	op[CloseTab, CloseTabResult]
	Tab string `json:"tab" handle:"tab" required:"true"`
}

// CloseTabResult names the closed tab and the selection after it.
type CloseTabResult struct {
	Egress
	Closed   string `json:"closed" handle:"tab"`
	Selected string `json:"selected" handle:"tab"`
}

// --- close ---

// Close ends the session: the worker disposes its browser context and exits after replying.
type Close struct{ op[Close, CloseResult] }

// CloseResult confirms the close.
type CloseResult struct {
	Egress
	Closed bool `json:"closed"`
}

// OperationContext is the optional per-call context narrowOriginPolicy returns: the
// effective origins for the call, a non-empty subset of the session base.
type OperationContext struct {
	Origins []string `json:"origins" required:"true"`
}
