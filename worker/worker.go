package worker

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"sync"
	"sync/atomic"

	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/browser"
	"github.com/mafredri/cdp/protocol/page"
	"github.com/mafredri/cdp/protocol/target"
	"github.com/mafredri/cdp/rpcc"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/policy"
	"github.com/fastbrowser/fastbrowser/transport/secrets"
	"github.com/fastbrowser/fastbrowser/transport/wire"
)

// Options configures one worker.
type Options struct {
	CDPURL string // DevTools HTTP endpoint or browser websocket URL
	// CDPFd is a file descriptor the worker inherited, its private socket to the gate of a
	// browser the runtime launched (runtime/internal/cdpgate: NUL-framed CDP); 0: use CDPURL.
	CDPFd          int
	AllowedOrigins []string           // base origin policy; empty means "*"
	Subresources   string             // transport.SubresourcesFail (default) or SubresourcesReport
	ServiceWorkers string             // "block" (default) or "allow"; "allow" also allows shared workers
	WebRTC         string             // "block" (default) or "allow"
	ProxyServer    string             // http://127.0.0.1:PORT: route the context through this proxy
	Viewport       transport.Viewport // every page's layout size; zero: the browser's own
	In             io.Reader
	Out            io.Writer
	Log            *log.Logger // stderr; never page content or secrets
	// DefaultContext runs the session in the browser's default context instead of a context
	// of its own: a persistent profile keeps only that context's cookies and storage (a
	// DevTools context is off the record). Its proxy is the browser's command line's, so
	// ProxyServer does not apply, and the context is never disposed.
	DefaultContext bool
	// AwaitBrowser: CDPURL or CDPFd comes as the first line of In, a JSON object
	// {"cdpUrl":…} or {"cdpFd":N} (awaitbrowser.go), before protocol v1 starts.
	AwaitBrowser bool
	// TestIDAttribute is the attribute a testId locator compares ("": data-testid, as
	// Playwright's default; locate_match.go).
	TestIDAttribute string
}

var errTabGone = errors.New("tab is gone")

// Worker holds one browser context and its tabs.
type Worker struct {
	log       *log.Logger
	bconn     *rpcc.Conn // the root of mux: the worker's one websocket, to the browser
	mux       *cdpMux    // every tab's, frame's and held page's session (cdpmux.go)
	bc        *cdp.Client
	contextID browser.ContextID
	base      policy.Policy
	product   string
	// proxyServer is the runtime's egress proxy for this context ("" for none).
	proxyServer string
	// defaultContext: the session runs in the browser's default context (Options).
	defaultContext bool
	// allowServiceWorkers lets pages register service workers (off by default: their
	// fetches escape interception).
	allowServiceWorkers bool
	// viewport is every page's layout size (zero: the browser's own; viewport.go).
	viewport transport.Viewport
	// allowWebRTC leaves RTCPeerConnection to pages (off by default: ICE traffic escapes
	// interception; see webrtc.go).
	allowWebRTC bool
	// pages holds new pages at their start until the worker has seen them (popupattach.go).
	pages pageHold
	// sockets are the WebSocket watchers of attached targets (websocket.go).
	sockets socketWatches
	// downloads is the download directory (download.go).
	downloads downloads
	// testIDAttr is the attribute testId locators compare ("": DefaultTestIDAttribute).
	testIDAttr string
	// stopDiscover ends target discovery (nil until it starts).
	stopDiscover context.CancelFunc

	mu       sync.Mutex
	tabs     map[target.ID]*tab
	first    target.ID // the first tab, known from its creation on (connect)
	seq      int
	selected target.ID // "" when no tab is selected
	popups   popupQueue
	egress   egress
	dialogs  dialogs
	secrets  []string     // secret texts typed this session, masked in screenshots; memory only
	masks    *secrets.Set // those texts and the parent's secrets (maskSecrets), masked before any cut (transport/textclip)
	life     browserLife
	lifetime lifetime

	// refSeq numbers outline refs across every tab and document (refs.go).
	refSeq atomic.Int64
}

// Run connects to the browser, creates the worker's browser context and first tab within the
// worker-readiness budget, then serves protocol v1 until the input ends or a close is
// answered. The browser context is disposed on the way out.
func Run(ctx context.Context, opts Options) error {
	lg := opts.Log
	if lg == nil {
		lg = log.New(io.Discard, "", 0)
	}
	// A pipe from the parent is read through the poller: each request then runs on the
	// thread that read it, without waking another (wire.PollableInput). It is reopened
	// before the endpoint line is read: awaitBrowser hands on a buffered reader, which
	// PollableInput cannot see through.
	in, closeIn := wire.PollableInput(opts.In)
	defer closeIn() // also ends awaitBrowser's read when it gave up waiting
	opts.In = in
	if opts.AwaitBrowser {
		in, err := awaitBrowser(&opts)
		if err != nil {
			return err
		}
		opts.In = in
	}
	base := policy.AllowAll()
	if len(opts.AllowedOrigins) > 0 && !(len(opts.AllowedOrigins) == 1 && opts.AllowedOrigins[0] == policy.Any) {
		p, err := policy.Parse(opts.AllowedOrigins)
		if err != nil {
			return fmt.Errorf("--allowed-origin: %w", err)
		}
		base = p
	}
	w := newWorker(lg, base)
	w.egress.report = opts.Subresources == transport.SubresourcesReport
	w.allowServiceWorkers = opts.ServiceWorkers == "allow"
	w.allowWebRTC = opts.WebRTC == "allow"
	w.proxyServer = opts.ProxyServer
	w.defaultContext = opts.DefaultContext
	w.viewport = opts.Viewport
	w.testIDAttr = opts.TestIDAttribute
	setup, cancel := context.WithTimeout(ctx, budgets.WorkerReady().Default)
	err := w.connect(setup, opts)
	cancel()
	if err != nil {
		w.teardown()
		return err
	}
	defer w.teardown()
	return wire.Serve(ctx, opts.In, opts.Out, w, wire.ServerOptions{Ready: transport.ReadyInfo{Browser: w.product}, Internal: true})
}

// newWorker is a worker before it connects: base policy in force, no tabs.
func newWorker(lg *log.Logger, base policy.Policy) *Worker {
	w := &Worker{log: lg, base: base, tabs: map[target.ID]*tab{}}
	w.lifetime.init()
	w.life.init(w.lifetime.ctx)
	w.egress.active = base
	return w
}

func (w *Worker) connect(ctx context.Context, opts Options) error {
	var err error
	if opts.CDPFd != 0 {
		w.mux, w.bconn, w.bc, err = dialMuxFd(ctx, opts.CDPFd)
	} else {
		var ws string
		if ws, err = browserURL(ctx, opts.CDPURL); err != nil {
			return err
		}
		w.mux, w.bconn, w.bc, err = dialMux(ctx, ws)
	}
	if err != nil {
		return fmt.Errorf("cannot connect to the browser's DevTools endpoint: %w", err)
	}
	w.watchBrowser()
	// The browser's answers to calls that do not depend on each other come back while the
	// others wait: its version while the context and tab are made, the watch for new tabs
	// and their hold while the first tab's renderer starts (attach waits on it).
	version := make(chan error, 1)
	go func() {
		v, err := w.bc.Browser.GetVersion(ctx)
		if err != nil {
			err = fmt.Errorf("the browser did not answer Browser.getVersion: %w", err)
		} else {
			w.product = v.Product
		}
		version <- err
	}()
	created, err := w.firstTab(ctx)
	if err != nil {
		<-version
		return err
	}
	// The first tab is known from here on: the watch and the hold leave it to attach.
	w.mu.Lock()
	w.first = created.TargetID
	w.mu.Unlock()
	discoverCtx, stop := context.WithCancel(w.lifetime.ctx)
	w.stopDiscover = stop
	watched := make(chan error, 1)
	go func() { watched <- w.watchNewTabs(ctx, discoverCtx) }()
	t, err := w.attach(ctx, created.TargetID)
	werr, verr := <-watched, <-version
	switch {
	case err != nil:
		return err
	case werr != nil:
		return werr
	case verr != nil:
		return verr
	}
	w.mu.Lock()
	w.selected = t.id
	w.mu.Unlock()
	return nil
}

// watchNewTabs starts discover, then the hold on new pages (holdNewPages).
func (w *Worker) watchNewTabs(setup, life context.Context) error {
	if err := w.discover(life); err != nil {
		return fmt.Errorf("cannot watch for new tabs: %w", err)
	}
	if err := w.holdNewPages(setup, life); err != nil {
		return fmt.Errorf("cannot hold new tabs at their start: %w", err)
	}
	return nil
}

// attach opens a session to a page target and starts tracking its main frame.
func (w *Worker) attach(ctx context.Context, id target.ID) (*tab, error) {
	return w.attachThen(ctx, id, nil)
}

// attachThen is attach with a step in between: ready (if any) runs once the target's
// requests are intercepted and its children auto-attached, all a page held at its start
// needs before it may run (popupattach.go); the steps after it wait for the page to run.
// Without ready (the first tab, or a page already running when found) nothing waits for
// the page to be let go, so the guard and the other steps go out together: each waits on
// the tab's renderer, and they then answer at once rather than one round trip after
// another. The tab is used only once all have answered (it is in w.tabs only then).
func (w *Worker) attachThen(ctx context.Context, id target.ID, ready func()) (*tab, error) {
	mux, conn, c, err := w.openTab(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("cannot connect to tab: %w", err)
	}
	life, stop := context.WithCancel(w.lifetime.ctx)
	t := &tab{id: id, mux: mux, conn: conn, c: c, stop: stop, changed: make(chan struct{})}
	fail := func(err error) (*tab, error) { stop(); _ = conn.Close(); return nil, err }
	// The tab's events are heard from before anything can send them.
	if err := w.watchDialogs(life, c, t); err != nil {
		return fail(err)
	}
	navigated, err := c.Page.FrameNavigated(life)
	if err != nil {
		return fail(err)
	}
	lifecycle, err := c.Page.LifecycleEvent(life)
	if err != nil {
		return fail(err)
	}
	t.diag = newDiagnostics(w.clipScrubbed)
	guard := func(context.Context) error {
		if err := w.intercept(life, c); err != nil {
			return err
		}
		return w.attachChildren(life, t, "", c)
	}
	sockets := func(ctx context.Context) error { return w.watchWebSockets(ctx, life, c) }
	diagnostics := func(context.Context) error { return watchDiagnostics(life, c, t.diag) }
	focus := func(ctx context.Context) error { return emulateFocus(ctx, c) }
	var tree *page.GetFrameTreeReply
	pages := func(ctx context.Context) error {
		if err := c.Page.Enable(ctx); err != nil {
			return err
		}
		if err := w.applyViewport(ctx, c); err != nil {
			return err
		}
		if err := w.guardDocuments(ctx, c); err != nil {
			return err
		}
		if err := c.Page.SetLifecycleEventsEnabled(ctx, page.NewSetLifecycleEventsEnabledArgs(true)); err != nil {
			return err
		}
		tree, err = c.Page.GetFrameTree(ctx)
		return err
	}
	if ready != nil {
		if err := guard(ctx); err != nil {
			return fail(err)
		}
		ready()
		err = together(ctx, stop, sockets, diagnostics, focus, pages)
	} else {
		err = together(ctx, stop, guard, sockets, diagnostics, focus, pages)
	}
	if err != nil {
		return fail(err)
	}
	f := tree.FrameTree.Frame
	t.mainFrame, t.loader, t.url = f.ID, string(f.LoaderID), f.URL
	// The first document (about:blank) has finished by the time we see it.
	t.loaded, t.domReady, t.idle = t.loader, t.loader, t.loader
	t.watch(navigated, lifecycle)

	w.mu.Lock()
	w.seq++
	t.seq = w.seq
	w.tabs[id] = t
	w.mu.Unlock()
	return t, nil
}

func (w *Worker) teardown() {
	if w.stopDiscover != nil {
		w.stopDiscover()
	}
	w.mu.Lock()
	tabs := w.tabs
	w.tabs = map[target.ID]*tab{}
	w.mu.Unlock()
	for _, t := range tabs {
		t.close()
	}
	if w.bc != nil && w.contextID != "" && !w.defaultContext {
		ctx, cancel := w.callContext()
		if err := w.bc.Target.DisposeBrowserContext(ctx, target.NewDisposeBrowserContextArgs(w.contextID)); err != nil {
			w.log.Printf("dispose browser context: %v", err)
		}
		cancel()
		w.contextID = ""
	}
	if w.bconn != nil {
		w.life.closing.Store(true)
		_ = w.bconn.Close()
	}
	w.removeDownloads() // after the context is gone: nothing writes there any more
	w.lifetime.end()    // last: teardown's own calls above ran within it
}

// Handle runs one operation (wire.Serve calls it one at a time) and reports the
// JavaScript dialogs answered while it ran and since the previous operation.
func (w *Worker) Handle(ctx context.Context, op transport.Operation, octx *transport.OperationContext) (transport.Result, error) {
	if err := w.browserGone(op.OpName()); err != nil {
		return nil, err
	}
	ctx, stop := w.whileBrowserLives(ctx)
	defer stop()
	res, err := w.handle(ctx, op, octx)
	return w.reportDialogs(op, res, err)
}

// handle runs one operation under its effective origin policy, and reports what the policy
// refused in the browser while it ran. A request refused since the previous operation ends
// this one before it acts.
func (w *Worker) handle(ctx context.Context, op transport.Operation, octx *transport.OperationContext) (transport.Result, error) {
	pol, err := w.effectivePolicy(op.OpName(), octx)
	if err != nil {
		return nil, err
	}
	spec := transport.SpecOf(op)
	if spec.Witness {
		// Evidence neither acts nor loads anything: refusals pending since the last
		// operation stay for the next one to report, and the policy in force stays.
		return w.run(ctx, op, pol)
	}
	earlier, fail := w.egress.take()
	if fail && !spec.EndsSession {
		return nil, egressDenied(op.OpName(), earlier, transport.NotAttempted, true)
	}
	// The policy stays in force after the operation, until the next one: what the page does
	// on its own meanwhile (a timer, a worker's late fetch) is held to the policy of the call
	// that led to it. Only a call without a context gets the base back.
	w.egress.setActive(pol)
	res, err := w.run(ctx, op, pol)
	w.settleWebSockets()
	blocked, fail := w.egress.take()
	blocked = append(earlier, blocked...)
	if len(blocked) == 0 {
		return res, err
	}
	if fail && !spec.EndsSession && !w.life.isDead() { // a dead browser says more
		return nil, egressDenied(op.OpName(), blocked, transport.Unknown, false)
	}
	if err != nil {
		oe := transport.AsOperationError(op.OpName(), err)
		oe.Blocked = blocked
		return nil, oe
	}
	transport.SetBlocked(res, blocked)
	return res, nil
}

func (w *Worker) effectivePolicy(op string, octx *transport.OperationContext) (policy.Policy, error) {
	if octx == nil {
		return w.base, nil
	}
	return w.narrow(op, "context.origins", octx.Origins)
}

// narrow applies the worker's own base: a parent driving the worker directly gets the same
// deny-by-default narrowing as one going through the runtime.
func (w *Worker) narrow(op, path string, origins []string) (policy.Policy, error) {
	p, err := w.base.Narrow(origins)
	return p, transport.PolicyRefusal(op, path, err)
}

// tabFor resolves a request's tab: the named one, or the selected one when empty.
func (w *Worker) tabFor(op, id string) (*tab, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if id == "" {
		if w.selected == "" {
			return nil, transport.NewError(op, transport.PhaseValidate, transport.CodeTabNotFound, transport.RetryNever, transport.NotAttempted, "no tab is selected; selectTab one first").WithPath("request.tab")
		}
		id = string(w.selected)
	}
	t, ok := w.tabs[target.ID(id)]
	if !ok {
		return nil, transport.NewError(op, transport.PhaseValidate, transport.CodeTabNotFound, transport.RetryNever, transport.NotAttempted, "no such tab").WithPath("request.tab")
	}
	return t, nil
}
