package scenario

import (
	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/strictjson"
)

// A file request is the protocol request with its "tab" replaced by a TabRef. Each type
// embeds the transport request, and its own "tab" field hides the embedded one.
type fileRequest interface {
	tabRef() *TabRef
	// bind returns the protocol request with tab set to a resolved handle ("" = selected).
	bind(tab string) transport.Operation
}

type navigateReq struct {
	Tab *TabRef `json:"tab,omitempty"`
	transport.Navigate
}
type reloadReq struct {
	Tab *TabRef `json:"tab,omitempty"`
	transport.Reload
}
type readReq struct {
	Tab *TabRef `json:"tab,omitempty"`
	transport.Read
}
type assertReq struct {
	Tab *TabRef `json:"tab,omitempty"`
	transport.Assert
}
type listTabsReq struct{ transport.ListTabs }
type narrowReq struct{ transport.NarrowOriginPolicy }
type observeReq struct {
	Tab *TabRef `json:"tab,omitempty"`
	transport.Observe
}
type actReq struct {
	Tab *TabRef `json:"tab,omitempty"`
	transport.Act
	// SecretText hides the protocol field of the same name: the runtime sets it for
	// {"env"} text; a file never does.
	SecretText *runtimeOnly `json:"secretText,omitempty"`
}

// runtimeOnly refuses a protocol field that only the runtime may set.
type runtimeOnly struct{}

func (*runtimeOnly) UnmarshalStrictJSON(_ []byte, path string) error {
	return &strictjson.Error{Path: path, Expected: "no such field", Message: "unknown field (the runtime sets it; a scenario file cannot)"}
}

type waitPopupReq struct {
	Opener *TabRef `json:"opener,omitempty"`
	transport.WaitPopup
}
type selectTabReq struct {
	Tab *TabRef `json:"tab" required:"true"`
	transport.SelectTab
}
type closeTabReq struct {
	Tab *TabRef `json:"tab" required:"true"`
	transport.CloseTab
}

func (r *navigateReq) tabRef() *TabRef  { return r.Tab }
func (r *reloadReq) tabRef() *TabRef    { return r.Tab }
func (r *readReq) tabRef() *TabRef      { return r.Tab }
func (r *assertReq) tabRef() *TabRef    { return r.Tab }
func (r *listTabsReq) tabRef() *TabRef  { return nil }
func (r *observeReq) tabRef() *TabRef   { return r.Tab }
func (r *actReq) tabRef() *TabRef       { return r.Tab }
func (r *waitPopupReq) tabRef() *TabRef { return r.Opener }
func (r *selectTabReq) tabRef() *TabRef { return r.Tab }
func (r *closeTabReq) tabRef() *TabRef  { return r.Tab }

func (r *navigateReq) bind(tab string) transport.Operation {
	op := r.Navigate
	op.Tab = tab
	return &op
}
func (r *reloadReq) bind(tab string) transport.Operation { op := r.Reload; op.Tab = tab; return &op }
func (r *readReq) bind(tab string) transport.Operation   { op := r.Read; op.Tab = tab; return &op }
func (r *assertReq) bind(tab string) transport.Operation { op := r.Assert; op.Tab = tab; return &op }
func (r *listTabsReq) bind(string) transport.Operation   { op := r.ListTabs; return &op }
func (r *selectTabReq) bind(tab string) transport.Operation {
	op := r.SelectTab
	op.Tab = tab
	return &op
}
func (r *closeTabReq) bind(tab string) transport.Operation {
	op := r.CloseTab
	op.Tab = tab
	return &op
}

// newFileRequest returns an empty file request for op, or false for an op scenario files
// cannot use (yet).
func newFileRequest(op string) (fileRequest, bool) {
	switch op {
	case transport.OpNavigate:
		return &navigateReq{}, true
	case transport.OpReload:
		return &reloadReq{}, true
	case transport.OpRead:
		return &readReq{}, true
	case transport.OpAssert:
		return &assertReq{}, true
	case transport.OpListTabs:
		return &listTabsReq{}, true
	case transport.OpSelectTab:
		return &selectTabReq{}, true
	case transport.OpCloseTab:
		return &closeTabReq{}, true
	case transport.OpObserve:
		return &observeReq{}, true
	case transport.OpAct:
		return &actReq{}, true
	case transport.OpWaitPopup:
		return &waitPopupReq{}, true
	case transport.OpNarrowOriginPolicy:
		return &narrowReq{}, true
	}
	return nil, false
}

// fileOps lists the ops a scenario file may use, for error messages.
const fileOps = "observe, act, step, read, assert, navigate, reload, listTabs, selectTab, waitPopup, closeTab, narrowOriginPolicy"

func decodeRequest(fr fileRequest, raw []byte, path string) error {
	if len(raw) == 0 {
		raw = []byte("{}")
	}
	return strictjson.DecodeAt(raw, fr, path)
}

func (r *observeReq) bind(tab string) transport.Operation {
	op := r.Observe
	op.Tab = tab
	return &op
}

func (r *actReq) bind(tab string) transport.Operation {
	op := r.Act
	op.Tab = tab
	return &op
}

func (r *waitPopupReq) bind(tab string) transport.Operation {
	op := r.WaitPopup
	op.Opener = tab
	return &op
}

func (r *narrowReq) tabRef() *TabRef { return nil }

func (r *narrowReq) bind(string) transport.Operation {
	op := r.NarrowOriginPolicy
	return &op
}
