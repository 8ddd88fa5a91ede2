package model_test

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/model"
	"github.com/fastbrowser/fastbrowser/runtime/model/modeltest"
	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/secrets"
)

var providers = []string{model.ProviderOpenAI, model.ProviderAnthropic}

// env is a fake environment that records every name asked for.
type env struct {
	mu    sync.Mutex
	vars  map[string]string
	asked []string
}

func (e *env) lookup(name string) (string, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.asked = append(e.asked, name)
	v, ok := e.vars[name]
	return v, ok
}

func (e *env) set(name, value string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.vars[name] = value
}

const keyEnv = "TEST_MODEL_KEY"

// adapter builds the adapter for cfg with a fake environment holding key in keyEnv.
func adapter(t *testing.T, cfg model.Config, key string) (model.Adapter, *env, *secrets.Set) {
	t.Helper()
	e := &env{vars: map[string]string{keyEnv: key}}
	keys := secrets.New()
	a, err := model.New(cfg, e.lookup, keys)
	if err != nil {
		t.Fatalf("New(%+v): %v", cfg, err)
	}
	return a, e, keys
}

// clickTool is a tool with a schema.
var clickTool = model.Tool{Name: "click", Description: "click an element",
	Parameters: json.RawMessage(`{"type":"object","properties":{"ref":{"type":"string"}},"required":["ref"]}`)}

// goal is a one-message request offering clickTool.
func goal(text string) model.Request {
	return model.Request{System: "you drive a browser",
		Messages: []model.Message{{Role: model.RoleUser, Text: text}}, Tools: []model.Tool{clickTool}}
}

// keyHeader is the key a recorded request carried, in provider's header.
func keyHeader(provider string, r modeltest.Recorded) string {
	if provider == model.ProviderAnthropic {
		return r.Header.Get("X-Api-Key")
	}
	return strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
}

// wantCode asserts err is an *OperationError with code, and returns it.
func wantCode(t *testing.T, err error, code transport.Code) *transport.OperationError {
	t.Helper()
	var oe *transport.OperationError
	if !errors.As(err, &oe) {
		t.Fatalf("error = %v (%T), want an *OperationError %s", err, err, code)
	}
	if oe.Code != code {
		t.Fatalf("code = %s (%v), want %s", oe.Code, oe, code)
	}
	if oe.Code != transport.CodeInvalidRequest && (oe.Phase != transport.PhaseExecute || oe.Retry != transport.RetryNever || oe.MutationState != transport.NotAttempted) {
		t.Errorf("error = %+v, want phase execute, retry never, not_attempted", oe)
	}
	return oe
}

// sameJSON asserts that got and want are the same JSON value.
func sameJSON(t *testing.T, what string, got []byte, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("%s: %v in %s", what, err, got)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("%s: the expected JSON: %v", what, err)
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("%s =\n%s\nwant\n%s", what, got, want)
	}
}

// complete makes one call with no deadline: the scripted server always answers.
func complete(a model.Adapter, req model.Request) (model.Reply, error) {
	return a.Complete(context.Background(), req)
}
