package conformance

import (
	"context"
	"fmt"
	"time"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/transport"
)

// The tasks the ownership check opens sessions for.
const (
	intruderTask = "conformance-intruder"
	expiringTask = "conformance-expiring"
	endingTask   = "conformance-ending"
)

// taskOwnership: a session is its task's alone, and a closed id stays closed. Another task's
// request is session_not_owned (and the owner's session goes on); a session left idle past
// its idleTimeoutS ends (the host reports it) and is then session_expired; a session closed
// with closeSession, and one whose task ended with endTask, is session_ended; and the next
// session opened never gets an ended id back.
func taskOwnership(ctx context.Context, e *env) error {
	main := e.rt.(owned)
	if _, err := transport.Dispatch(ctx, main.as(intruderTask), transport.Read{}); codeOf(err) != transport.CodeSessionNotOwned {
		return fmt.Errorf("another task's read of the session: got %s, want %s", outcome("", err), transport.CodeSessionNotOwned)
	}
	if _, err := transport.Dispatch(ctx, main, transport.Read{}); err != nil {
		return fmt.Errorf("the owner's read after another task was refused: %w", err)
	}

	const idleS = 1
	expiring, err := e.openSession(ctx, expiringTask, transport.OpenSession{IdleTimeoutS: idleS})
	if err != nil {
		return fmt.Errorf("open a session with idleTimeoutS %d: %w", idleS, err)
	}
	defer e.endTask(ctx, expiringTask)
	if _, err := batch(ctx, expiring, navigateAction(e.fixture+"/about")); err != nil {
		return fmt.Errorf("batch in the expiring session: %w", err)
	}
	// The host's idle watch ends it: waited for as an event, within its idle time and a
	// request's budget for the host to get round to it.
	why, err := e.ends.wait(ctx, expiring.id, idleS*time.Second+budgets.Request().Default)
	if err != nil {
		return err
	}
	if why != "expired" {
		return fmt.Errorf("the idle session ended %q, want expired", why)
	}
	if _, err := transport.Dispatch(ctx, expiring, transport.Read{}); codeOf(err) != transport.CodeSessionExpired {
		return fmt.Errorf("a request to the expired session: got %s, want %s", outcome("", err), transport.CodeSessionExpired)
	}

	closing, err := e.openSession(ctx, endingTask, transport.OpenSession{})
	if err != nil {
		return fmt.Errorf("open a session to close: %w", err)
	}
	if _, err := transport.Dispatch(ctx, hostCaller{e.calls}, transport.CloseSession{Session: closing.id, Task: endingTask}); err != nil {
		return fmt.Errorf("closeSession: %w", err)
	}
	if _, err := batch(ctx, closing, navigateAction(e.fixture+"/about")); codeOf(err) != transport.CodeSessionEnded {
		return fmt.Errorf("a batch in the closed session: got %s, want %s", outcome("", err), transport.CodeSessionEnded)
	}
	ending, err := e.openSession(ctx, endingTask, transport.OpenSession{})
	if err != nil {
		return fmt.Errorf("open a session whose task ends: %w", err)
	}
	if ending.id == closing.id || ending.id == expiring.id {
		return fmt.Errorf("the ended id %s was reopened", ending.id)
	}
	e.endTask(ctx, endingTask)
	if _, err := transport.Dispatch(ctx, ending, transport.Read{}); codeOf(err) != transport.CodeSessionEnded {
		return fmt.Errorf("a request after endTask: got %s, want %s", outcome("", err), transport.CodeSessionEnded)
	}
	return nil
}
