package worker

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"github.com/mafredri/cdp/protocol/page"
	cdpruntime "github.com/mafredri/cdp/protocol/runtime"
	"github.com/mafredri/cdp/rpcc"
)

// worldName names the isolated world our fixed scripts run in, so page script cannot see or
// tamper with them (it cannot redefine the DOM APIs the scripts call).
const worldName = "fastbrowser"

var errScript = errors.New("page script failed")

// evaluate runs one of the worker's own fixed scripts (never caller-supplied code) in the
// tab's isolated world and decodes its JSON value into out.
func (w *Worker) evaluate(ctx context.Context, t *tab, script string, out any) error {
	for attempt := 0; ; attempt++ {
		world, err := t.isolatedWorld(ctx)
		if err != nil {
			return err
		}
		reply, err := t.c.Runtime.Evaluate(ctx, cdpruntime.NewEvaluateArgs(script).
			SetContextID(world).SetReturnByValue(true).SetSilent(true))
		if err != nil {
			// The world died with its document between our calls: make a new one once.
			// Reads are not mutations, so this is not a retry of anything that acts.
			if attempt == 0 && staleContext(err) {
				t.forgetWorld()
				continue
			}
			return err
		}
		if reply.ExceptionDetails != nil {
			return errScript
		}
		return json.Unmarshal(reply.Result.Value, out)
	}
}

// staleContext reports Chromium's answer for an execution context that no longer exists:
// gone before the call, or destroyed during it.
func staleContext(err error) bool {
	var re *rpcc.ResponseError
	return errors.As(err, &re) && (strings.Contains(re.Message, "Cannot find context") || strings.Contains(re.Message, "Execution context was destroyed"))
}

func (t *tab) isolatedWorld(ctx context.Context) (cdpruntime.ExecutionContextID, error) {
	t.mu.Lock()
	loader, frame := t.loader, t.mainFrame
	if t.world != 0 && t.worldLoader == loader {
		world := t.world
		t.mu.Unlock()
		return world, nil
	}
	t.mu.Unlock()
	reply, err := t.c.Page.CreateIsolatedWorld(ctx, page.NewCreateIsolatedWorldArgs(frame).SetWorldName(worldName))
	if err != nil {
		return 0, err
	}
	t.mu.Lock()
	t.world, t.worldLoader = reply.ExecutionContextID, loader
	t.mu.Unlock()
	return reply.ExecutionContextID, nil
}

func (t *tab) forgetWorld() {
	t.mu.Lock()
	t.world, t.worldLoader = 0, ""
	t.mu.Unlock()
}
