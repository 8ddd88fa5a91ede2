package transport

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/budgets"
)

// maskHandler answers maskSecrets with how many values it was given.
type maskHandler struct{ echoHandler }

func (h *maskHandler) Handle(ctx context.Context, op Operation, octx *OperationContext) (Result, error) {
	if m, ok := op.(*MaskSecrets); ok {
		return &MaskSecretsResult{Masking: len(m.Values)}, nil
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
	if rf := session.response(t); rf.Error == nil || rf.Error.Code != CodeInvalidRequest || rf.Error.Path != "op" || strings.Contains(rf.Error.Message, "s3cret") {
		t.Fatalf("a session's server answered %+v, want invalid_request at op", rf)
	}
	worker := startPeerWith(t, &maskHandler{}, ServerOptions{Internal: true})
	worker.send(t, line)
	if rf := worker.response(t); rf.Error != nil || string(rf.Result) != `{"masking":1}` {
		t.Fatalf("the worker's server answered %+v (%s)", rf.Error, rf.Result)
	}
}

// TestMaskSecretsValidate: each refusal names the field, and neither a refusal nor the
// request printed shows a value.
func TestMaskSecretsValidate(t *testing.T) {
	many := make([]string, budgets.MaskSecretValues+1)
	for i := range many {
		many[i] = fmt.Sprintf("secret-%04d", i)
	}
	for _, c := range []struct {
		values []string
		path   string
	}{
		{nil, "request.values"},
		{[]string{"s3cret-value", ""}, "request.values[1]"},
		{many, "request.values"},
	} {
		err := Validate(&MaskSecrets{Values: c.values})
		oe := AsOperationError("", err)
		if oe == nil || oe.Code != CodeInvalidRequest || oe.Path != c.path || strings.Contains(oe.Message, "secret-") || strings.Contains(oe.Message, "s3cret") {
			t.Errorf("Validate(%d values) = %v, want invalid_request at %s", len(c.values), err, c.path)
		}
	}
	if err := Validate(&MaskSecrets{Values: many[:budgets.MaskSecretValues]}); err != nil {
		t.Errorf("Validate(%d values) = %v", budgets.MaskSecretValues, err)
	}
	req := &MaskSecrets{Values: []string{"s3cret-value"}}
	for _, s := range []string{fmt.Sprint(req), fmt.Sprintf("%v %+v %#v %s", req, req, req, *req)} {
		if strings.Contains(s, "s3cret") {
			t.Errorf("the request prints its value: %s", s)
		}
	}
}
