package runtime

import (
	"encoding/json"
	"errors"

	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/secrets"
)

// scrubResult removes every secret of the session from a result (read text, titles, URLs,
// outline text…) by scrubbing its JSON, each string decoded as well (the outline's quoted
// text), and decoding it again. Nothing to scrub, no cost. It fails closed: a result that
// cannot be scrubbed is not returned.
func (r *Runtime) scrubResult(op transport.Operation, res transport.Result) (transport.Result, error) {
	if r.secrets.Len() == 0 || res == nil {
		return res, nil
	}
	raw, err := json.Marshal(res)
	clean := transport.NewResult(op)
	if err == nil {
		err = json.Unmarshal(r.secrets.ScrubJSON(raw), clean)
	}
	if err != nil {
		mut := transport.NotAttempted
		if op.Mutates() {
			mut = transport.Unknown
		}
		return nil, transport.NewError(op.OpName(), transport.PhaseExecute, transport.CodeInternal, transport.RetryNever, mut,
			"the result could not be scrubbed of secrets, so it is withheld").WithCause(err)
	}
	return clean, nil
}

// scrubError removes secrets from an error's free text: its message and the messages of
// the dialogs it reports (the page's own words).
func (r *Runtime) scrubError(op string, err error) error {
	if r.secrets.Len() == 0 || err == nil {
		return err
	}
	oe := *transport.AsOperationError(op, err)
	oe.Message = r.secrets.Scrub(oe.Message)
	oe.Expected, oe.Received = r.secrets.Scrub(oe.Expected), r.secrets.Scrub(oe.Received)
	if len(oe.CallLog) > 0 {
		log := make([]string, len(oe.CallLog))
		for i, l := range oe.CallLog {
			log[i] = r.secrets.Scrub(l)
		}
		oe.CallLog = log
	}
	if len(oe.Dialogs) > 0 {
		dialogs := make([]transport.Dialog, len(oe.Dialogs))
		for i, d := range oe.Dialogs {
			d.Message = r.secrets.Scrub(d.Message)
			dialogs[i] = d
		}
		oe.Dialogs = dialogs
	}
	return &oe
}

// secretRefusal says why a value cannot be a secret, without the value.
func secretRefusal(err error) string {
	switch {
	case errors.Is(err, secrets.ErrTooShort):
		return "shorter than 4 characters (masking it would corrupt ordinary output)"
	case errors.Is(err, secrets.ErrInsideMask):
		return "it occurs inside the mask text"
	}
	return "refused"
}
