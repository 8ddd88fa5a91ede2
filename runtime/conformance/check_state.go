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

// oneContext: state set in batch 1 (a typed field) is still there in batches 2 and 3, and
// batch 2's own state (a checked box) in batch 3, on the same document: nothing was
// reloaded, re-navigated or replayed between batches.
func oneContext(ctx context.Context, e *env) error {
	const typed = "conformance-state"
	nav, err := e.navigate(ctx, "/form")
	if err != nil {
		return fmt.Errorf("batch 1: %w", err)
	}
	if _, err := transport.Dispatch(ctx, e.rt, transport.Act{Action: transport.ActType, Target: usernameField, Text: transport.Literal(typed)}); err != nil {
		return fmt.Errorf("batch 1: type Username: %w", err)
	}
	assertValue := func(batch int) error {
		if _, err := transport.Dispatch(ctx, e.rt, transport.Assert{Kind: transport.AssertValue, Target: &usernameField, Value: typed, Wait: transport.WaitNone}); err != nil {
			return fmt.Errorf("batch %d: the Username typed in batch 1 is gone: %w", batch, err)
		}
		return nil
	}
	if err := assertValue(2); err != nil {
		return err
	}
	if _, err := transport.Dispatch(ctx, e.rt, transport.Act{Action: transport.ActCheck, Target: rememberBox}); err != nil {
		return fmt.Errorf("batch 2: check Remember me: %w", err)
	}
	if err := assertValue(3); err != nil {
		return err
	}
	if _, err := transport.Dispatch(ctx, e.rt, transport.Assert{Kind: transport.AssertChecked, Target: &rememberBox, Value: "true", Wait: transport.WaitNone}); err != nil {
		return fmt.Errorf("batch 3: the box checked in batch 2 is not checked: %w", err)
	}
	rd, err := transport.Dispatch(ctx, e.rt, transport.Read{})
	if err != nil {
		return fmt.Errorf("batch 3: read: %w", err)
	}
	if rd.DocumentID != nav.DocumentID {
		return fmt.Errorf("batch 3: the document changed between batches (%s, then %s): the page was reloaded or replayed", nav.DocumentID, rd.DocumentID)
	}
	return nil
}
