package worker

import (
	"testing"

	"github.com/fastbrowser/fastbrowser/transport"
)

// TestEveryOperationHasAHandler: the worker implements every row of the operation table and
// nothing else.
func TestEveryOperationHasAHandler(t *testing.T) {
	for _, s := range transport.Ops() {
		if handlers[s.Name] == nil {
			t.Errorf("operation %s has no worker handler (register one with var _ = handles((*Worker).%s))", s.Name, s.Name)
		}
	}
	if len(handlers) != len(transport.Ops()) {
		t.Errorf("%d handlers for %d operations", len(handlers), len(transport.Ops()))
	}
}
