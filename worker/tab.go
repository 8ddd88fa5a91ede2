package worker

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"sync"

	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/page"
	cdpruntime "github.com/mafredri/cdp/protocol/runtime"
	"github.com/mafredri/cdp/protocol/target"
	"github.com/mafredri/cdp/rpcc"

	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/worker/internal/outline"
)

// tab is one page target of the worker's browser context, with its own CDP session and
// the main-frame state its event streams keep current.
type tab struct {
	id   target.ID
	seq  int        // creation order: listTabs is deterministic
	mux  *cdpMux    // the socket the tab's session and its children's are on
	conn *rpcc.Conn // the tab's session
	c    *cdp.Client
	stop context.CancelFunc // ends the event goroutines

	mu        sync.Mutex
	mainFrame page.FrameID
	loader    string        // main-frame loader of the committed document
	loaded    string        // loader whose load event fired
	domReady  string        // loader whose DOMContentLoaded fired (wait's load states)
	idle      string        // loader whose networkIdle fired: no request for 500 ms
	url       string        // main-frame URL as last committed
	changed   chan struct{} // closed and replaced on every state change
	gone      bool          // target destroyed or connection lost

	world       cdpruntime.ExecutionContextID // isolated world for our fixed scripts
	worldLoader string                        // document the world belongs to

	axEnabled map[string]bool // sessions whose Accessibility domain is on ("" = the tab's)
	refs      *refTable       // outline refs of the current document

	diag        *diagnostics             // console and network summaries for evidence
	secretNodes map[outline.NodeKey]bool // fields a secret was typed into: always masked

	frames   map[string]*oopif // out-of-process frames by session (frames.go)
	frameSeq int
}

// documentID is the opaque id of the tab's committed document; it changes on every
// navigation and reload. Loader ids are CDP internals, so they are hashed.
func (t *tab) documentID() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return documentID(t.id, t.loader)
}

func documentID(id target.ID, loader string) string {
	sum := sha256.Sum256([]byte(string(id) + "\x00" + loader))
	return "doc-" + hex.EncodeToString(sum[:8])
}

// update changes state under the lock and wakes every waiter.
func (t *tab) update(f func()) {
	t.mu.Lock()
	f()
	close(t.changed)
	t.changed = make(chan struct{})
	t.mu.Unlock()
}

// waitFor blocks until cond (evaluated under the lock) holds, the tab is gone, or ctx ends.
func (t *tab) waitFor(ctx context.Context, cond func() bool) error {
	for {
		t.mu.Lock()
		ok, gone, ch := cond(), t.gone, t.changed
		t.mu.Unlock()
		if ok {
			return nil
		}
		if gone {
			return errTabGone
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// watch keeps main-frame state current from the Page domain's events. Event streams are
// always drained so Chromium never blocks on us; they end with the tab's context.
func (t *tab) watch(navigated page.FrameNavigatedClient, lifecycle page.LifecycleEventClient) {
	go func() {
		receive(navigated, func(ev *page.FrameNavigatedReply) {
			if ev.Frame.ParentID != nil {
				return
			}
			t.update(func() {
				t.mainFrame = ev.Frame.ID
				t.loader = string(ev.Frame.LoaderID)
				t.url = ev.Frame.URL
				if ev.Frame.URLFragment != nil {
					t.url += *ev.Frame.URLFragment
				}
				if ev.Type == page.NavigationTypeBackForwardCacheRestore {
					// A page restored from the back/forward cache does not load again, nor
					// fetch what it loaded.
					t.loaded, t.domReady, t.idle = t.loader, t.loader, t.loader
				}
			})
		})
		t.update(func() { t.gone = true }) // the tab's connection closed, or it went away
	}()
	drain(lifecycle, func(ev *page.LifecycleEventReply) {
		t.mu.Lock()
		main := ev.FrameID == t.mainFrame
		t.mu.Unlock()
		if !main {
			return
		}
		switch ev.Name {
		case "load":
			t.update(func() { t.loaded = string(ev.LoaderID) })
		case "DOMContentLoaded":
			t.update(func() { t.domReady = string(ev.LoaderID) })
		case "networkIdle":
			t.update(func() { t.idle = string(ev.LoaderID) })
		}
	})
}

// reachedLocked reports whether the document of loader has reached a wait's load state
// (transport.LoadStates); t.mu is held. A loaded document has had its DOMContentLoaded.
func (t *tab) reachedLocked(state, loader string) bool {
	switch state {
	case transport.LoadStateDOMContentLoaded:
		return t.domReady == loader || t.loaded == loader
	case transport.LoadStateLoad:
		return t.loaded == loader
	case transport.LoadStateNetworkIdle:
		return t.idle == loader
	}
	return false
}

func (t *tab) close() {
	t.stop()
	_ = t.conn.Close()
	t.update(func() { t.gone = true })
}

// axOn reports whether the Accessibility domain is on in a session of the tab.
func (t *tab) axOn(session string) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.axEnabled[session]
}

func (t *tab) setAXOn(session string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.axEnabled == nil {
		t.axEnabled = map[string]bool{}
	}
	t.axEnabled[session] = true
}
