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
	}
	return nil, false
}

// fileOps lists the ops a scenario file may use, for error messages.
const fileOps = "navigate, reload, read, assert, listTabs, selectTab, closeTab"

func decodeRequest(fr fileRequest, raw []byte, path string) error {
	if len(raw) == 0 {
		raw = []byte("{}")
	}
	return strictjson.DecodeAt(raw, fr, path)
}
