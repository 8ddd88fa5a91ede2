package worker

import (
	"context"
	"strconv"

	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/policy"
)

var _ = handles((*Worker).maskSecrets)

// maskSecrets adds the parent's secrets to those masked before any cut of page text
// (transport/textclip): the ones no act typed here, which the runtime sends before a call whose result
// can carry page text. The values stay in memory; nothing logs them, and a refusal names
// only the index.
func (w *Worker) maskSecrets(_ context.Context, r *transport.MaskSecrets, _ policy.Policy) (transport.Result, error) {
	set := w.maskSet()
	for i, v := range r.Values {
		if err := set.Add(v); err != nil {
			// The values before it are masked from now on: masking more never leaks.
			return nil, transport.Invalid(r.OpName(), "request.values["+strconv.Itoa(i)+"]", "%s", err.Error())
		}
	}
	return &transport.MaskSecretsResult{Masking: set.Len()}, nil
}
