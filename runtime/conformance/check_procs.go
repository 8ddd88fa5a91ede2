package conformance

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/target"
	"github.com/mafredri/cdp/rpcc"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/transport"
)

// noProcessLeft closes the main session with closeSession and then the host (every session
// left): the main session's worker and every process of its group are gone, and the browser
// holds no page of the fixture any more (each worker closed its context). Then the suite's
// browser is stopped: its process is gone and its profile removed.
func noProcessLeft(ctx context.Context, e *env) error {
	if _, err := transport.Dispatch(ctx, hostCaller{e.calls}, transport.CloseSession{Session: e.main, Task: mainTask}); err != nil {
		return fmt.Errorf("closing the session: %w", err)
	}
	if err := e.host.Close(); err != nil {
		return fmt.Errorf("closing the host: %w", err)
	}
	if left := groupMembers(e.worker); len(left) > 0 {
		return fmt.Errorf("after the session closed, the worker's process group still has %v", left)
	}
	pages, err := e.fixturePages(ctx)
	if err != nil {
		return err
	}
	if len(pages) > 0 {
		return fmt.Errorf("after the session closed, the browser still shows %v: the worker left its context open", pages)
	}
	pid, profile := e.browser.Pid(), e.browser.ProfileDir()
	if err := e.browser.Close(); err != nil {
		return fmt.Errorf("stopping the browser: %w", err)
	}
	if left := groupMembers(pid); len(left) > 0 {
		return fmt.Errorf("after the browser stopped, its process group still has %v", left)
	}
	if _, err := os.Stat(profile); !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("the browser's profile %s is still there", profile)
	}
	return nil
}

// fixturePages lists the browser's targets showing a fixture or canary page, asked of the
// suite's own browser through its gate (so only the session could have opened them).
func (e *env) fixturePages(ctx context.Context) ([]string, error) {
	ctx, cancel := context.WithTimeout(ctx, budgets.Request().Default)
	defer cancel()
	stream, err := e.browser.Dial(ctx)
	if err != nil {
		return nil, fmt.Errorf("listing the browser's targets: %w", err)
	}
	conn, err := rpcc.DialContext(ctx, "", rpcc.WithDialer(func(context.Context, string) (io.ReadWriteCloser, error) { return stream, nil }))
	if err != nil {
		_ = stream.Close()
		return nil, fmt.Errorf("listing the browser's targets: %w", err)
	}
	defer conn.Close()
	targets, err := cdp.NewClient(conn).Target.GetTargets(ctx, target.NewGetTargetsArgs())
	if err != nil {
		return nil, fmt.Errorf("listing the browser's targets: %w", err)
	}
	var pages []string
	for _, t := range targets.TargetInfos {
		if strings.HasPrefix(t.URL, e.fixture) || strings.HasPrefix(t.URL, e.canaryURL) {
			pages = append(pages, t.Type+" "+t.URL)
		}
	}
	return pages, nil
}
