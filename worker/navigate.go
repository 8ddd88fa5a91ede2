package worker

import (
	"context"
	"errors"
	"strings"

	"github.com/mafredri/cdp/protocol/page"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/policy"
)

var _ = handles((*Worker).navigate)

// navigate checks the URL against the effective policy again (the runtime already did: this
// is the worker's own line), then loads it and waits for the load event within the
// navigation budget. It resolves its tab itself (not handlesTab): a refused URL is the
// error even when the tab is missing too.
func (w *Worker) navigate(ctx context.Context, r *transport.Navigate, pol policy.Policy) (transport.Result, error) {
	if _, err := pol.CheckURL(r.URL); err != nil {
		return nil, transport.PolicyRefusal(transport.OpNavigate, "request.url", err)
	}
	t, err := w.tabFor(transport.OpNavigate, r.Tab)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, budgets.Navigation().Default)
	defer cancel()
	mark := w.unloadMark(t)
	reply, err := t.c.Page.Navigate(ctx, page.NewNavigateArgs(r.URL))
	if err != nil {
		return nil, w.cdpFailure(transport.OpNavigate, transport.Unknown, err)
	}
	if reply.ErrorText != nil && *reply.ErrorText != "" {
		if w.unloadRefused(t, mark) {
			return nil, navigationRefused(transport.OpNavigate)
		}
		return nil, navigationFailed(r.URL, *reply.ErrorText)
	}
	if reply.LoaderID != nil { // nil: a same-document navigation, nothing to load
		loader := string(*reply.LoaderID)
		refused := false
		if err := t.waitFor(ctx, func() bool {
			refused = w.unloadRefused(t, mark)
			return refused || t.loaded == loader
		}); err != nil {
			return nil, w.loadWaitFailure(t, transport.OpNavigate, err)
		}
		if refused {
			return nil, navigationRefused(transport.OpNavigate)
		}
	}
	return w.documentResult(ctx, t, transport.OpNavigate)
}

var _ = handlesTab((*Worker).reload)

// reload reloads and waits for the new document's load event.
func (w *Worker) reload(ctx context.Context, t *tab, r *transport.Reload, _ policy.Policy) (transport.Result, error) {
	ctx, cancel := context.WithTimeout(ctx, budgets.Navigation().Default)
	defer cancel()
	t.mu.Lock()
	old := t.loader
	t.mu.Unlock()
	mark := w.unloadMark(t)
	if err := t.c.Page.Reload(ctx, page.NewReloadArgs()); err != nil {
		return nil, w.cdpFailure(transport.OpReload, transport.Unknown, err)
	}
	refused := false
	if err := t.waitFor(ctx, func() bool {
		refused = w.unloadRefused(t, mark)
		return refused || t.loader != old && t.loaded == t.loader
	}); err != nil {
		return nil, w.loadWaitFailure(t, transport.OpReload, err)
	}
	if refused {
		return nil, navigationRefused(transport.OpReload)
	}
	return w.documentResult(ctx, t, transport.OpReload)
}

func (w *Worker) loadWaitFailure(t *tab, op string, err error) error {
	if errors.Is(err, context.DeadlineExceeded) {
		stopCtx, cancel := w.callContext()
		_ = t.c.Page.StopLoading(stopCtx) // best effort: leave the tab quiet, not loading
		cancel()
		return transport.NewError(op, transport.PhaseExecute, transport.CodeTimeout, transport.RetryUnsafe, transport.Unknown,
			"the page did not finish loading within the navigation budget (%s)", budgets.Navigation().Default)
	}
	return w.cdpFailure(op, transport.Unknown, err)
}

// documentResult describes the committed document: URL, title, HTTP status, documentId.
func (w *Worker) documentResult(ctx context.Context, t *tab, op string) (transport.Result, error) {
	var info struct {
		URL    string `json:"url"`
		Title  string `json:"title"`
		Status int    `json:"status"`
	}
	if err := w.evaluate(ctx, t, documentInfoScript, &info); err != nil {
		return nil, w.cdpFailure(op, transport.Unknown, err)
	}
	return &transport.NavigateResult{Tab: string(t.id), URL: info.URL, Title: info.Title, Status: info.Status, DocumentID: t.documentID()}, nil
}

// documentInfoScript reads the committed document's URL, title and HTTP status (the
// navigation timing entry's responseStatus, Chromium 109+), and its time origin, which
// differs for every document a tab loads, a reload of the same URL included (observe's
// stamp). It runs in our isolated world.
const documentInfoScript = `(() => {
  const nav = performance.getEntriesByType('navigation')[0];
  return {url: location.href, title: document.title, status: (nav && nav.responseStatus) || 0, stamp: performance.timeOrigin};
})()`

// navigationFailed is the error of a navigation the browser could not load: tls_failed when
// the browser refused the connection's TLS (its own verification, when the egress proxy does
// not carry the session's TLS), naming the origin; navigation_failed otherwise.
func navigationFailed(url, errText string) error {
	netErr := safeNetError(errText)
	if isTLSNetError(netErr) {
		return transport.NewError(transport.OpNavigate, transport.PhaseExecute, transport.CodeTLSFailed, transport.RetryNever, transport.Unknown,
			"the TLS connection to %s failed: the browser did not accept it (%s)", policy.OriginOf(url), netErr)
	}
	return transport.NewError(transport.OpNavigate, transport.PhaseExecute, transport.CodeNavigationFailed, transport.RetryUnsafe, transport.Unknown, "navigation failed: %s", netErr)
}

// isTLSNetError: Chromium's net errors of certificates and TLS (net/base/net_error_list.h).
func isTLSNetError(netErr string) bool {
	for _, p := range []string{"net::ERR_CERT_", "net::ERR_SSL_", "net::ERR_TLS", "net::ERR_BAD_SSL_CLIENT_AUTH_CERT"} {
		if strings.HasPrefix(netErr, p) {
			return true
		}
	}
	return false
}

// safeNetError keeps Chromium's net error name (net::ERR_…) and nothing else.
func safeNetError(s string) string {
	if len(s) > 64 {
		s = s[:64]
	}
	for _, c := range s {
		if !(c == ':' || c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
			return "net error"
		}
	}
	return s
}
