package runtime_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/model"
	"github.com/fastbrowser/fastbrowser/runtime/model/modeltest"
	"github.com/fastbrowser/fastbrowser/transport"
)

// Seed 001: the 2,000 ms action allowance is in the schema the model is offered, and checked
// again before dispatch: an allowance under it is refused with nothing dispatched; one at it
// is dispatched.
func TestTaskActAllowanceInSchemaAndChecked(t *testing.T) {
	site, _ := taskSite(t)
	srv := modeltest.Start(t)
	cfg := srv.Config(model.ProviderOpenAI, taskAPIEnv)
	rt := openTaskSession(t, site.URL, &cfg)
	signIn := refFor(t, rt, "button", "Sign in")
	srv.Script(modeltest.Step{Tool: "act", Args: map[string]any{"action": "click", "ref": signIn, "allowanceMs": 500}})
	_, err := transport.Dispatch(bg, rt, transport.Task{Goal: "Sign in", MaxActions: 1})
	if tool := actTool(t, srv); !strings.Contains(tool, `"allowanceMs":{`) || !strings.Contains(tool, `"minimum":2000`) {
		t.Errorf("the act schema the model saw has no 2000 ms allowance: %s", tool)
	}
	var oe *transport.OperationError
	if !errors.As(err, &oe) || oe.Code != transport.CodeTaskRefused || oe.MutationState != transport.NotAttempted || !strings.Contains(oe.Message, "allowanceMs") {
		t.Fatalf("an allowance of 500 ms: %v, want task_refused, nothing attempted, naming allowanceMs", err)
	}

	srv.Script(modeltest.Step{Tool: "act", Args: map[string]any{"action": "click", "ref": refFor(t, rt, "button", "Sign in"), "allowanceMs": 2000}})
	res, err := transport.Dispatch(bg, rt, transport.Task{Goal: "Sign in", MaxActions: 1})
	if err != nil || len(res.Actions) != 1 {
		t.Fatalf("an allowance of 2000 ms: %v %+v, want the click dispatched", err, res)
	}
}
