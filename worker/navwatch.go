package worker

import (
	"context"
	"sync"

	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/page"
)

// navWatch watches a tab's main frame while an operation that may navigate it runs (an
// act's input, a history step): whether a navigation was asked for or started, and how it
// ended — a new document committed and loaded, a same-document commit, or loading stopped
// with nothing committed (aborted, a 204, a download). Its streams are synchronised and
// read by one goroutine, so it sees the events in the order Chromium sent them (a same-
// document commit before the loading stop that follows it). Every change wakes the tab's
// waiters, so a wait is a tab.waitFor on nw's state.
type navWatch struct {
	t      *tab
	stop   context.CancelFunc
	before string // the committed loader when the watch began
	unload int    // beforeunload dialogs dismissed before it (unloadMark)

	mu       sync.Mutex
	started  int    // main-frame navigations asked for or started (requested, startedLoading)
	loader   string // the loader of a new document committed since (frameNavigated)
	loaded   string // a loader whose load event fired since
	within   int    // value of started at the last same-document commit (0: none)
	stopped  int    // value of started when the main frame last stopped loading (0: never)
	refused  bool   // the origin policy refused a request meanwhile (handle reports it)
	download bool   // the navigation was asked for as a download
}

// watchNavigation starts watching t's main frame. The streams are open (no event can be
// missed) when it returns; end stops them.
func (w *Worker) watchNavigation(t *tab) (*navWatch, error) {
	ctx, stop := context.WithCancel(w.lifetime.ctx)
	o := &streams{ctx: ctx}
	requested := openStream(o, t.c.Page.FrameRequestedNavigation)
	startedLoading := openStream(o, t.c.Page.FrameStartedLoading)
	navigated := openStream(o, t.c.Page.FrameNavigated)
	within := openStream(o, t.c.Page.NavigatedWithinDocument)
	lifecycle := openStream(o, t.c.Page.LifecycleEvent)
	stoppedLoading := openStream(o, t.c.Page.FrameStoppedLoading)
	if o.err == nil {
		o.err = cdp.Sync(requested, startedLoading, navigated, within, lifecycle, stoppedLoading)
	}
	if o.err != nil {
		stop()
		return nil, o.err
	}
	nw := &navWatch{t: t, stop: stop, unload: w.unloadMark(t)}
	t.mu.Lock()
	nw.before = t.loader
	t.mu.Unlock()
	main := func(id page.FrameID) bool {
		t.mu.Lock()
		defer t.mu.Unlock()
		return id == t.mainFrame
	}
	refusals := w.egress.refusals()
	go func() {
		defer func() {
			for _, s := range []interface{ Close() error }{requested, startedLoading, navigated, within, lifecycle, stoppedLoading} {
				_ = s.Close()
			}
		}()
		for {
			var err error
			select {
			case <-ctx.Done():
				return
			case <-refusals:
				// A refused request ends any wait: handle reports it (egress_denied, or the
				// result's blocked list), and a refused navigation never commits here.
				refusals = nil
				nw.change(func() { nw.refused = true })
			case <-requested.Ready():
				var ev *page.FrameRequestedNavigationReply
				if ev, err = requested.Recv(); err == nil && main(ev.FrameID) {
					switch ev.Disposition {
					case page.ClientNavigationDispositionDownload:
						nw.change(func() { nw.download = true })
					case page.ClientNavigationDispositionCurrentTab:
						nw.change(func() { nw.started++ })
					}
				}
			case <-startedLoading.Ready():
				var ev *page.FrameStartedLoadingReply
				if ev, err = startedLoading.Recv(); err == nil && main(ev.FrameID) {
					nw.change(func() { nw.started++ })
				}
			case <-navigated.Ready():
				var ev *page.FrameNavigatedReply
				if ev, err = navigated.Recv(); err == nil && ev.Frame.ParentID == nil && string(ev.Frame.LoaderID) != nw.before {
					nw.change(func() {
						nw.loader = string(ev.Frame.LoaderID)
						if ev.Type == page.NavigationTypeBackForwardCacheRestore {
							nw.loaded = nw.loader // restored whole: it does not load again
						}
					})
				}
			case <-within.Ready():
				var ev *page.NavigatedWithinDocumentReply
				if ev, err = within.Recv(); err == nil && main(ev.FrameID) {
					nw.change(func() { nw.within = max(nw.started, 1) })
				}
			case <-lifecycle.Ready():
				var ev *page.LifecycleEventReply
				if ev, err = lifecycle.Recv(); err == nil && ev.Name == "load" && main(ev.FrameID) {
					nw.change(func() { nw.loaded = string(ev.LoaderID) })
				}
			case <-stoppedLoading.Ready():
				var ev *page.FrameStoppedLoadingReply
				if ev, err = stoppedLoading.Recv(); err == nil && main(ev.FrameID) {
					nw.change(func() { nw.stopped = max(nw.started, 1) })
				}
			}
			if err != nil {
				return // the tab's connection closed: tab.watch marks it gone
			}
		}
	}()
	return nw, nil
}

// change updates nw's state and wakes the tab's waiters.
func (nw *navWatch) change(f func()) {
	nw.mu.Lock()
	f()
	nw.mu.Unlock()
	nw.t.update(func() {})
}

func (nw *navWatch) end() { nw.stop() }

// navState is a look at a watched navigation.
type navState struct {
	started   bool // a main-frame navigation was asked for or started since the watch began
	committed bool // a new document committed
	loaded    bool // and its load event fired, and the tab knows it as its document
	within    bool // a same-document navigation committed after the last start
	stopped   bool // loading stopped after the last start (with committed false: nothing committed)
	refused   bool // the origin policy refused a request
	download  bool
}

// state reads nw; it is called with t.mu held (inside tab.waitFor's condition). loaded also
// waits for tab.watch, whose own stream may be a moment behind, to have the new document,
// so the result's documentId is the new one.
func (nw *navWatch) state() navState {
	nw.mu.Lock()
	defer nw.mu.Unlock()
	s := navState{
		started:   nw.started > 0,
		committed: nw.loader != "",
		within:    nw.within > 0 && nw.within == max(nw.started, 1),
		stopped:   nw.stopped > 0 && nw.stopped == max(nw.started, 1),
		refused:   nw.refused,
		download:  nw.download,
	}
	s.loaded = s.committed && nw.loaded == nw.loader && nw.t.loader == nw.loader
	return s
}

// peek is state outside a wait.
func (nw *navWatch) peek() navState {
	nw.t.mu.Lock()
	defer nw.t.mu.Unlock()
	return nw.state()
}
