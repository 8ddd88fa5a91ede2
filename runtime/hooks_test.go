package runtime

import (
	"reflect"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/policy"
)

// TestEveryRuntimeOperationHasItsHooks: the runtime answers every operation the table says is
// its own (OpSpec.Runtime); every operation whose result carries an artifact payload is
// committed to the store (a payload never leaves the runtime) and refused before dispatch in
// a session without one; the host's and the internal operations, which call never runs,
// have no hook; an answered operation has no hook that would never run.
func TestEveryRuntimeOperationHasItsHooks(t *testing.T) {
	for _, s := range transport.Ops() {
		answered, prepared, committed := answerHooks[s.Name] != nil, prepareHooks[s.Name] != nil, commitHooks[s.Name] != nil
		if s.Host || s.Internal {
			if answered || prepared || committed {
				t.Errorf("operation %s never reaches call, yet has a runtime hook", s.Name)
			}
			continue
		}
		if s.Runtime && !answered {
			t.Errorf("operation %s is the runtime's (OpSpec.Runtime) but has no answer: register one with var _ = answers((*Runtime).…)", s.Name)
		}
		if answered && (prepared || committed) {
			t.Errorf("operation %s is answered by the runtime, so its prepare or commit hook never runs", s.Name)
		}
		payload := carriesPayload(reflect.TypeOf(transport.NewResult(s.New())), map[reflect.Type]bool{})
		switch {
		case payload && !committed:
			t.Errorf("the result of %s carries an artifact payload but has no commit: register one with var _ = commits((*Runtime).…)", s.Name)
		case committed && !payload:
			t.Errorf("operation %s has a commit hook but its result carries no artifact payload", s.Name)
		}
		if payload {
			needsStore(t, s)
		}
	}
}

// needsStore: the row's prepare hook refuses it in a session without an artifact store,
// before the worker is asked for bytes that would have nowhere to go.
func needsStore(t *testing.T, s transport.OpSpec) {
	t.Helper()
	prepare := prepareHooks[s.Name]
	if prepare == nil {
		t.Errorf("operation %s commits an artifact but has no prepare hook refusing it without a store: register one with var _ = prepares((*Runtime).…)", s.Name)
		return
	}
	err := prepare(&Runtime{}, s.New(), policy.AllowAll())
	if oe := transport.AsOperationError(s.Name, err); err == nil || oe.Code != transport.CodeInvalidRequest || !strings.Contains(oe.Message, "no artifact store") {
		t.Errorf("%s without an artifact store: prepare answered %v, want invalid_request (no artifact store)", s.Name, err)
	}
}

// carriesPayload reports whether a value of type t can hold a transport.ArtifactPayload.
func carriesPayload(t reflect.Type, seen map[reflect.Type]bool) bool {
	if t == reflect.TypeFor[transport.ArtifactPayload]() {
		return true
	}
	if seen[t] {
		return false
	}
	seen[t] = true
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
		return carriesPayload(t.Elem(), seen)
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			if carriesPayload(t.Field(i).Type, seen) {
				return true
			}
		}
	}
	return false
}
