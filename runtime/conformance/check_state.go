package conformance

import (
	"context"
	"fmt"

	"github.com/fastbrowser/fastbrowser/transport"
)

var (
	usernameField = transport.Target{Role: "textbox", Name: transport.Match("Username")}
	rememberBox   = transport.Target{Role: "checkbox", Name: transport.Match("Remember me")}
)

// oneContext: three real batches through the host, in one session. Batch 1 opens /form and
// checks "Remember me"; batch 2 types a Username and reads the page; batch 3 only reads it.
// The box checked in batch 1 is still checked in batches 2 and 3, on the same document, and
// the Username typed in batch 2 is still there after batch 3: nothing was reloaded,
// re-navigated or replayed between batches.
func oneContext(ctx context.Context, e *env) error {
	const typed = "conformance-state"
	b1, err := batch(ctx, e.rt, navigateAction(e.fixture+"/form"), transport.BatchAction{Action: transport.VerbClick, Target: &rememberBox})
	if err != nil || b1.Posture != transport.PostureOK {
		return fmt.Errorf("batch 1 (navigate /form, check Remember me): %s", batchOutcome(b1, err))
	}
	var nav transport.NavigateResult
	if err := resultOf(b1.Actions[0], &nav); err != nil {
		return fmt.Errorf("batch 1: %w", err)
	}
	b2, err := batch(ctx, e.rt, transport.BatchAction{Action: transport.VerbType, Target: &usernameField, Text: transport.Literal(typed)}, pageTextAction())
	if err != nil || b2.Posture != transport.PostureOK {
		return fmt.Errorf("batch 2 (type Username, page_text): %s", batchOutcome(b2, err))
	}
	if err := stillChecked(2, b2.Actions[1], nav.DocumentID); err != nil {
		return err
	}
	b3, err := batch(ctx, e.rt, pageTextAction())
	if err != nil || b3.Posture != transport.PostureOK {
		return fmt.Errorf("batch 3 (page_text): %s", batchOutcome(b3, err))
	}
	if err := stillChecked(3, b3.Actions[0], nav.DocumentID); err != nil {
		return err
	}
	// page_text carries no field values: the typed one is asserted in the same session.
	if _, err := transport.Dispatch(ctx, e.rt, transport.Assert{Kind: transport.AssertValue, Target: &usernameField, Value: typed, Wait: transport.WaitNone}); err != nil {
		return fmt.Errorf("after batch 3: the Username typed in batch 2 is gone: %w", err)
	}
	return nil
}

// stillChecked: a page_text result shows "Remember me" checked, on document doc.
func stillChecked(n int, a transport.BatchActionResult, doc string) error {
	var obs transport.ObserveResult
	if err := resultOf(a, &obs); err != nil {
		return fmt.Errorf("batch %d: %w", n, err)
	}
	if obs.DocumentID != doc {
		return fmt.Errorf("batch %d: the document changed since batch 1 (%s, then %s): the page was reloaded or replayed", n, doc, obs.DocumentID)
	}
	checked := ""
	walk(obs.Nodes, 1, func(node transport.OutlineNode, _ int) bool {
		if node.Role == "checkbox" && node.Name == "Remember me" {
			checked = node.Checked
		}
		return checked == ""
	})
	if checked != "true" {
		return fmt.Errorf("batch %d: the box checked in batch 1 is %q, not checked", n, checked)
	}
	return nil
}

// batchOutcome describes a batch that did not end as it should have.
func batchOutcome(b transport.BatchResult, err error) string {
	if err != nil {
		return "error " + err.Error()
	}
	s := fmt.Sprintf("posture %s", b.Posture)
	if b.Code != "" {
		s += ", code " + string(b.Code)
	}
	for _, a := range b.Actions {
		s += fmt.Sprintf("; %d %s %s", a.Index, a.Action, a.Status)
		if a.Error != nil {
			s += " (" + string(a.Error.Code) + ")"
		}
	}
	return s
}
