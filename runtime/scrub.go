package runtime

import (
	"encoding/json"
	"errors"

	"github.com/fastbrowser/fastbrowser/runtime/secrets"
	"github.com/fastbrowser/fastbrowser/transport"
)

// scrubResult removes every secret of the session from a result (read text, titles, URLs,
// outline text…) by scrubbing its JSON and decoding it again. Nothing to scrub, no cost.
func (r *Runtime) scrubResult(op transport.Operation, res transport.Result) transport.Result {
	if r.secrets.Len() == 0 || res == nil {
		return res
	}
	raw, err := json.Marshal(res)
	if err != nil {
		return res
	}
	clean := transport.NewResult(op)
	if err := json.Unmarshal(r.secrets.ScrubBytes(raw), clean); err != nil {
		return res
	}
	return clean
}

// scrubError removes secrets from an error's free text: its message and the messages of
// the dialogs it reports (the page's own words).
func (r *Runtime) scrubError(op string, err error) error {
	if r.secrets.Len() == 0 || err == nil {
		return err
	}
	oe := *transport.AsOperationError(op, err)
	oe.Message = r.secrets.Scrub(oe.Message)
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
