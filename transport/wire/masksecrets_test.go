package wire

import (
	"context"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/transport"
)

// maskHandler answers maskSecrets with how many values it was given.
type maskHandler struct{ echoHandler }

func (h *maskHandler) Handle(ctx context.Context, op transport.Operation, octx *transport.OperationContext) (transport.Result, error) {
	if m, ok := op.(*transport.MaskSecrets); ok {
		return &transport.MaskSecretsResult{Masking: len(m.Values)}, nil
	}
	return h.echoHandler.Handle(ctx, op, octx)
}

// TestMaskSecretsOnlyForAWorker: a Server without ServerOptions.Internal (a session's:
// `serve`, the multi-session host) refuses maskSecrets as an unknown operation, naming no
// value; the worker's decodes and answers it.
func TestMaskSecretsOnlyForAWorker(t *testing.T) {
	const line = `{"v":1,"id":"1","op":"maskSecrets","request":{"values":["s3cret-value"]}}`
	session := startPeer(t, &maskHandler{})
	session.send(t, line)
	if rf := session.response(t); rf.Error == nil || rf.Error.Code != transport.CodeInvalidRequest || rf.Error.Path != "op" || strings.Contains(rf.Error.Message, "s3cret") {
		t.Fatalf("a session's server answered %+v, want invalid_request at op", rf)
	}
	worker := startPeerWith(t, &maskHandler{}, ServerOptions{Internal: true})
	worker.send(t, line)
	if rf := worker.response(t); rf.Error != nil || string(rf.Result) != `{"masking":1}` {
		t.Fatalf("the worker's server answered %+v (%s)", rf.Error, rf.Result)
	}
}
