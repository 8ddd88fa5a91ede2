package registry

import (
	"testing"

	"github.com/fastbrowser/fastbrowser/transport"
)

// TestEveryHostRowIsAnswered: each operation the table gives the host (OpSpec.Host) is
// answered by the host itself, or is batch, which runs in its frame's session; nothing else
// is answered here.
func TestEveryHostRowIsAnswered(t *testing.T) {
	for _, s := range transport.Ops() {
		_, answered := hostAnswers[s.Name]
		switch {
		case s.Host && s.Name != transport.OpBatch && !answered:
			t.Errorf("host operation %s has no answer in hostAnswers", s.Name)
		case !s.Host && answered:
			t.Errorf("%s is answered by the host but its row is not Host", s.Name)
		}
	}
}
