package runtime

import (
	"context"
	"slices"
	"sync"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/transport"
)

// The worker cuts page text to its bounds (read's text, outline names, console and dialog
// messages) after masking the secrets it knows; the runtime scrubs only whole secrets after.
// So before each call the runtime hands the worker every value of its Set the worker was not
// told yet (maskSecrets): a secret it holds but no act typed, such as `serve --secret-env`,
// a scenario's server and hook env or a model's key, added at the start or while the session
// runs. A value an act types reaches the worker in the act, so a session whose secrets are
// all typed sends nothing more. The values go over the worker's stdin only, never on its
// command line, in its environment or in any log.

// workerMasks is what the worker was told of r.secrets.
type workerMasks struct {
	// mu is held while the worker is told: calls hold r.turn, but a task's own failure
	// evidence is captured outside it.
	mu   sync.Mutex
	seen int // values of r.secrets looked at (secrets.Set.Since)
	// pending were looked at but not handed over: the batch that failed, or the value of an
	// act that failed (it may not have reached the field, where the worker learns it).
	pending []string
}

// maskInWorker hands the worker what it lacks before op is sent. It returns the value op
// itself carries to the worker, if it was left out for that (see typedDone). A failure
// fails op, not attempted: cutting page text then could leave a secret's head.
func (r *Runtime) maskInWorker(ctx context.Context, op transport.Operation) (carried string, err error) {
	if transport.SpecOf(op).EndsSession {
		return "", nil // close returns no page text, and runs even when the worker cannot
	}
	r.masks.mu.Lock()
	defer r.masks.mu.Unlock()
	fresh, next := r.secrets.Since(r.masks.seen)
	values := append(r.masks.pending, fresh...)
	r.masks.seen, r.masks.pending = next, nil
	if a, ok := op.(*transport.Act); ok && a.SecretText && a.Text != nil {
		n := len(values)
		values = slices.DeleteFunc(values, func(v string) bool { return v == a.Text.Value() })
		if len(values) < n {
			carried = a.Text.Value()
		}
	}
	for len(values) > 0 {
		batch := values[:min(len(values), budgets.MaskSecretValues)]
		if _, err := r.worker.Call(ctx, &transport.MaskSecrets{Values: batch}, nil); err != nil {
			if carried != "" {
				values = append(values, carried)
			}
			r.masks.pending = values
			return "", maskFailed(op.OpName(), err)
		}
		values = values[len(batch):]
	}
	return carried, nil
}

// typedDone records the outcome of the act that carried a value maskInWorker left out: one
// that failed may not have reached its field, so the value is handed over before the next
// call (told twice at worst, which changes nothing).
func (r *Runtime) typedDone(carried string, err error) {
	if carried != "" && err != nil {
		r.masks.mu.Lock()
		r.masks.pending = append(r.masks.pending, carried)
		r.masks.mu.Unlock()
	}
}

// maskFailed is op's error when the worker could not be told the session's secrets: the
// worker's own (worker_crashed, browser_crashed, …), for op, which was not sent.
func maskFailed(op string, err error) error {
	oe := *transport.AsOperationError(op, err)
	oe.Operation, oe.MutationState, oe.Path = op, transport.NotAttempted, ""
	oe.Message = "the session's secrets could not be handed to the worker, so the request was not sent: " + oe.Message
	return &oe
}
