package registry

import (
	"context"
	"encoding/json"

	"github.com/fastbrowser/fastbrowser/transport"
)

// batch runs a batch's actions in order and ends it on the first failure or egress denial
// (that action's posture), or on a page whose class is one of the session's handoff
// classes (handoff_required); every action after the end is skipped, never run.
func (h *Host) batch(ctx context.Context, s *session, b *transport.Batch) (transport.Result, error) {
	out := &transport.BatchResult{Posture: transport.PostureOK, Actions: make([]transport.BatchActionResult, len(b.Actions))}
	ended := false
	for i, a := range b.Actions {
		ar := &out.Actions[i]
		ar.Index, ar.Action = i, a.Action
		if ended {
			ar.Status = transport.ActionSkipped
			continue
		}
		if why := h.endedWhy(s); why != "" {
			// closeSession or endTask ended the session while the batch ran (they run
			// outside its lane): nothing more runs in it.
			ar.Status, ar.Posture = transport.ActionSkipped, ""
			out.Posture, out.Code, ended = transport.PostureFailed, transport.CodeSessionEnded, true
			continue
		}
		res, err := s.rt.Call(ctx, s.actionOp(a), nil)
		h.noteCrash(s, err)
		if err != nil && h.endedWhy(s) != "" {
			err = sessionError(transport.OpBatch, transport.CodeSessionEnded, "session %s ended while this action ran (%s)", s.id, h.endedWhy(s))
		}
		if err != nil {
			oe := transport.AsOperationError("", err)
			ar.Status, ar.Posture, ar.Error = transport.ActionFailed, transport.PostureOf(err), oe
			out.Posture, out.Code, ended = ar.Posture, oe.Code, true
			continue
		}
		ar.Status, ar.Posture = transport.ActionOK, transport.PostureOK
		raw, _ := json.Marshal(res)
		ar.Result = transport.AnyResult(raw)
		if len(s.handoff) == 0 || !changesPage(a.Action) {
			continue
		}
		ob, err := transport.Dispatch(ctx, s.rt, transport.Observe{MaxNodes: 1})
		if err != nil {
			// The page's class cannot be told, so a handoff page could go unreported: the
			// batch ends here (fail closed) rather than act on a page nobody judged.
			oe := transport.AsOperationError(transport.OpObserve, err)
			ar.Posture, ar.Error = transport.PostureOf(err), oe
			out.Posture, out.Code, ended = ar.Posture, oe.Code, true
			continue
		}
		ar.PageClass = ob.PageClass
		if s.handoff[ob.PageClass] {
			ar.Posture = transport.PostureHandoffRequired
			ar.Error = transport.NewError(transport.OpBatch, transport.PhaseVerify, transport.CodeHandoffRequired, transport.RetryNever, transport.Verified,
				"the page is classed %s, a handoff class of this session: a person must take over", ob.PageClass)
			out.Posture, out.Code, ended = transport.PostureHandoffRequired, transport.CodeHandoffRequired, true
		}
	}
	return out, nil
}

// actionOp is the protocol operation a batch action is.
func (s *session) actionOp(a transport.BatchAction) transport.Operation {
	switch a.Action {
	case transport.VerbNavigate:
		return &transport.Navigate{URL: a.URL}
	case transport.VerbClick:
		return &transport.Act{Action: transport.ActClick, Target: *a.Target}
	case transport.VerbType:
		return &transport.Act{Action: transport.ActType, Target: *a.Target, Text: a.Text}
	case transport.VerbSubmit:
		return &transport.Act{Action: transport.ActPress, Target: *a.Target, Key: "Enter"}
	case transport.VerbDownload:
		return &transport.Download{Target: *a.Target}
	case transport.VerbScreenshot:
		return &transport.CaptureEvidence{RunID: "batch", Operation: transport.OpScreenshot}
	default: // page_text
		ob := &transport.Observe{}
		s.applyPageText(ob)
		return ob
	}
}

func changesPage(verb string) bool {
	switch verb {
	case transport.VerbNavigate, transport.VerbClick, transport.VerbType, transport.VerbSubmit:
		return true
	}
	return false
}

// endedWhy is why the session ended ("" while it lives).
func (h *Host) endedWhy(s *session) string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return s.ended
}
