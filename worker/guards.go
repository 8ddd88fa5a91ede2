package worker

import (
	"context"
	"strings"

	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/page"
)

// guardsJS runs each guard (a function of a window) on the document's window before the
// page's own scripts run, and again on every window this one opens: a new same-origin
// window's first document is reachable by its opener (open() returns it) before the worker
// has attached to it. The helpers are captured first, so a page that replaces
// Object.defineProperty or Reflect.apply later cannot turn the guard of a window it opens
// into a no-op. A guard that fails (a cross-origin window, a second run over a property
// already made non-configurable) leaves the others to run.
//
// A frame's window is guarded the same way as its parent reaches it through the iframe
// element (contentWindow, contentDocument): a same-origin about:blank frame a script creates
// and reads in one task, whose own document guard may come a moment later. Not covered by
// these hooks: a frame reached by index (frames[0], window[0]) in that same task, which no
// script hook can intercept; its own document guard is then all that holds it.
const guardsJS = `(() => {
  const define = Object.defineProperty, getPrototypeOf = Object.getPrototypeOf, apply = Reflect.apply;
  const describe = Object.getOwnPropertyDescriptor;
  const seen = new WeakSet(), has = WeakSet.prototype.has, add = WeakSet.prototype.add;
  const guards = [%GUARDS%];
  const guard = function (win) {
    // Once per document (a window keeps its WindowProxy across navigations; its next
    // document is guarded anew). A cross-origin window's document cannot be read: its
    // guards could not be applied either.
    try {
      const doc = win.document;
      if (apply(has, seen, [doc])) return;
      apply(add, seen, [doc]);
    } catch (e) { return; }
    for (const g of guards) {
      try { g(win); } catch (e) {}
    }
    try {
      const original = win.open;
      define(win, 'open', {value: function open() {
        const opened = apply(original, this, arguments);
        if (opened) guard(opened);
        return opened;
      }, writable: true, configurable: true, enumerable: true});
    } catch (e) {}
    // A frame's window as its parent reaches it (iframe.contentWindow, contentDocument) is
    // guarded before the parent gets it: a script that creates an about:blank frame and
    // reads its window in the same task would otherwise outrun the new document's guard.
    for (const name of ['HTMLIFrameElement', 'HTMLFrameElement']) {
      try {
        const proto = win[name].prototype;
        const cw = describe(proto, 'contentWindow'), cd = describe(proto, 'contentDocument');
        define(proto, 'contentWindow', {get: function () {
          const w = apply(cw.get, this, []);
          if (w) guard(w);
          return w;
        }, configurable: true, enumerable: true});
        define(proto, 'contentDocument', {get: function () {
          const d = apply(cd.get, this, []);
          if (d && d.defaultView) guard(d.defaultView);
          return d;
        }, configurable: true, enumerable: true});
      } catch (e) {}
    }
  };
  guard(globalThis);
})();`

// documentGuards is the guard script of this session: the service worker and shared worker
// blocks unless service workers are allowed, the WebRTC block unless WebRTC is, the
// WebTransport block unless the base policy is "*". "" when the session allows everything.
func (w *Worker) documentGuards() string {
	var guards []string
	if !w.allowServiceWorkers {
		guards = append(guards, serviceWorkerGuardJS, sharedWorkerGuardJS)
	}
	if !w.allowWebRTC {
		guards = append(guards, webrtcGuardJS)
	}
	if !w.base.IsAny() {
		guards = append(guards, webtransportGuardJS)
	}
	if len(guards) == 0 {
		return ""
	}
	return strings.Replace(guardsJS, "%GUARDS%", strings.Join(guards, ",\n"), 1)
}

// guardDocuments installs the session's guards in every document of a tab or an
// out-of-process frame, before the page's own scripts run, and at once in the documents it
// already has.
func (w *Worker) guardDocuments(ctx context.Context, c *cdp.Client) error {
	js := w.documentGuards()
	if js == "" {
		return nil
	}
	_, err := c.Page.AddScriptToEvaluateOnNewDocument(ctx, page.NewAddScriptToEvaluateOnNewDocumentArgs(js).SetRunImmediately(true))
	return err
}
