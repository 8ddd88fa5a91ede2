package worker

import (
	"context"

	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/page"
)

// blockServiceWorkersJS makes service worker registration fail in every document of the tab
// before the page's own scripts run. A service worker's fetches escape page interception, so
// by default none may start (Playwright's serviceWorkers:"block" works the same way).
const blockServiceWorkersJS = `(() => {
  const sw = globalThis.navigator && navigator.serviceWorker;
  if (!sw) return;
  const refuse = function () {
    return Promise.reject(new DOMException('service worker registration is blocked by fastbrowser', 'SecurityError'));
  };
  Object.defineProperty(Object.getPrototypeOf(sw), 'register', {value: refuse, writable: false, configurable: false});
})();`

// blockServiceWorkers installs the registration block on a tab or an out-of-process frame,
// unless the session allows service workers.
func (w *Worker) blockServiceWorkers(ctx context.Context, c *cdp.Client) error {
	if w.allowServiceWorkers {
		return nil
	}
	_, err := c.Page.AddScriptToEvaluateOnNewDocument(ctx, page.NewAddScriptToEvaluateOnNewDocumentArgs(blockServiceWorkersJS).SetRunImmediately(true))
	return err
}
