package worker

import (
	"context"

	"github.com/fastbrowser/fastbrowser/budgets"
)

// lifetime is the worker's one root context: every goroutine and every call the worker
// makes outside an operation (event handlers, holds, teardown's own calls, a tab's event
// streams) derives from it, and teardown ends it last, so nothing the worker started
// outlives it. An operation's context is the caller's, bounded by its budget.
type lifetime struct {
	ctx context.Context
	end context.CancelFunc
}

func (l *lifetime) init() { l.ctx, l.end = context.WithCancel(context.Background()) }

// callContext bounds one CDP call made outside an operation by the call budget.
func (w *Worker) callContext() (context.Context, context.CancelFunc) {
	return context.WithTimeout(w.lifetime.ctx, budgets.CDPCall().Default)
}
