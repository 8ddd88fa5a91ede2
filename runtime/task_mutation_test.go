package runtime_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/model"
	"github.com/fastbrowser/fastbrowser/runtime/model/modeltest"
	"github.com/fastbrowser/fastbrowser/transport"
)

// TestTaskFailedActionAfterOneDispatched: a task whose first action was dispatched and whose
// second fails before it reaches the page has still changed the page: its error says
// mutationState unknown (retry unsafe), never not_attempted, which would tell the caller the
// task could be run again as if nothing had happened.
func TestTaskFailedActionAfterOneDispatched(t *testing.T) {
	site, _ := taskSite(t)
	srv := modeltest.Start(t)
	cfg := srv.Config(model.ProviderOpenAI, taskAPIEnv)
	rt := openTaskSession(t, site.URL, &cfg)
	user := refFor(t, rt, "textbox", "Username")
	srv.Script(
		modeltest.Step{Tool: "act", Args: map[string]string{"action": "type", "ref": user, "text": "bob"}},
		// Checking a text field is refused by the action itself, before it is dispatched.
		modeltest.Step{Tool: "act", Args: map[string]string{"action": "check", "ref": user}},
	)
	_, err := transport.Dispatch(bg, rt, taskOf("Sign in as alice"))
	var oe *transport.OperationError
	if !errors.As(err, &oe) || oe.Operation != transport.OpTask {
		t.Fatalf("err %v, want the task's failure", err)
	}
	rd, rerr := transport.Dispatch(bg, rt, transport.Read{})
	if rerr != nil || !strings.Contains(rd.Text, "User is bob") {
		t.Fatalf("the first action did not reach the page (%v): the test means nothing", rerr)
	}
	if oe.MutationState != transport.Unknown || oe.Retry != transport.RetryUnsafe {
		t.Errorf("code %s: mutationState %s retry %s after an action was dispatched, want unknown and unsafe", oe.Code, oe.MutationState, oe.Retry)
	}
	noLeaks(t, srv, oe)
}
