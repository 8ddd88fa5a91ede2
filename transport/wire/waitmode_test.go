package wire

import (
	"testing"

	"github.com/fastbrowser/fastbrowser/transport"
)

// An assert's wait is "bounded", "none" or left out; on the wire "" is refused with the
// path, like any other value (issue 11 item 10: it used to pass as the default).
func TestServeRefusesWaitOtherThanBoundedOrNone(t *testing.T) {
	p := startPeer(t, &echoHandler{})
	for _, wait := range []string{`""`, `"forever"`, `"None"`, `5`} {
		t.Run(wait, func(t *testing.T) {
			p.send(t, `{"v":1,"id":"w","op":"assert","request":{"kind":"url","value":"x","wait":`+wait+`}}`)
			rf := p.response(t)
			if rf.Error == nil || rf.Error.Code != transport.CodeInvalidRequest || rf.Error.Path != "request.wait" ||
				rf.Error.Phase != transport.PhaseValidate || rf.Error.MutationState != transport.NotAttempted {
				t.Fatalf("wait %s: error = %+v, want invalid_request at request.wait", wait, rf.Error)
			}
			if wait != "5" && rf.Error.Message != `expected "bounded" or "none"` {
				t.Errorf("wait %s: message = %q", wait, rf.Error.Message)
			}
		})
	}
	// Left out, "bounded" and "none" pass validation and reach the handler.
	for _, req := range []string{`{"kind":"url","value":"x"}`, `{"kind":"url","value":"x","wait":"bounded"}`, `{"kind":"url","value":"x","wait":"none"}`} {
		p.send(t, `{"v":1,"id":"ok","op":"assert","request":`+req+`}`)
		if rf := p.response(t); rf.Error != nil && rf.Error.Code == transport.CodeInvalidRequest {
			t.Errorf("%s refused: %+v", req, rf.Error)
		}
	}
}
