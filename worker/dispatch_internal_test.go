package worker

import (
	"testing"

	"github.com/fastbrowser/fastbrowser/transport"
)

// TestEveryOperationHasAHandler: the worker implements every row of the operation table but
// the host's own (OpSpec.Host) and the runtime's (OpSpec.Runtime), and nothing else.
func TestEveryOperationHasAHandler(t *testing.T) {
	workerOps := 0
	for _, s := range transport.Ops() {
		if s.Host || s.Runtime {
			if handlers[s.Name] != nil {
				t.Errorf("host or runtime operation %s has a worker handler", s.Name)
			}
			continue
		}
		workerOps++
		if handlers[s.Name] == nil {
			t.Errorf("operation %s has no worker handler (register one with var _ = handles((*Worker).%s))", s.Name, s.Name)
		}
	}
	if len(handlers) != workerOps {
		t.Errorf("%d handlers for %d worker operations", len(handlers), workerOps)
	}
}
