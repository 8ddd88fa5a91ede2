package runtime

import (
	"context"
	"errors"
	"io"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fastbrowser/fastbrowser/runtime/chromium"
	"github.com/fastbrowser/fastbrowser/runtime/internal/egressproxy"
	"github.com/fastbrowser/fastbrowser/runtime/model"
	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/policy"
	"github.com/fastbrowser/fastbrowser/transport/secrets"
)

// Options configures one session.
type Options struct {
	// Allocator is where the session's browser comes from: a browser launched or attached
	// once and shared by any number of sessions, closed by whoever made the Allocator. Nil
	// gives the session a browser of its own from Executable, Headed and CDPURL.
	Allocator *Allocator
	// OnRelaunch, when set, hears that opening this session replaced the Allocator's dead
	// browser (`run` reports it on stderr and as the scenario's runtime.relaunch event).
	OnRelaunch func(Relaunch)
	// Executable is the Chromium to launch ("" → /usr/bin/chromium). Ignored with CDPURL or
	// an Allocator.
	Executable string
	// Headed shows the browser window (default headless). Ignored with an Allocator.
	Headed bool
	// CDPURL attaches to an existing browser (http://host:port, or a browser websocket URL under any path: Chromium's /devtools/browser/…, Selenium Grid's /session/ID/se/cdp)
	// instead of launching one. The runtime never stops a browser it attached to. Ignored
	// with an Allocator.
	CDPURL string
	// AllowedOrigins is the session's base policy: ["*"] (the default when empty) or exact
	// origins.
	AllowedOrigins []string
	// WorkerPath runs the worker from this executable instead of this binary's own "worker"
	// subcommand; WorkerArgs go before the worker's own flags (e.g. {"worker"}).
	WorkerPath string
	WorkerArgs []string
	// OwnWorker says the worker at WorkerPath is fastbrowser's own (it takes
	// --await-browser), as it always is with WorkerPath "": it is then started before the
	// browser is launched or attached, and given it when it is up, so its process start is
	// not paid after the launch. Another worker is started once the browser is up, with
	// --cdp-url.
	OwnWorker bool
	// Log receives Chromium's and the worker's stderr. Nil discards.
	Log io.Writer
	// Subresources says what a subresource refused by the origin policy does:
	// transport.SubresourcesFail (the default) or SubresourcesReport.
	Subresources string
	// ServiceWorkers "allow" lets pages register service workers and start shared workers;
	// the default blocks both.
	ServiceWorkers string
	// WebRTC "allow" lets pages use WebRTC; the default blocks it (see webrtc.go).
	WebRTC string
	// Viewport lays every page of the session out at this size (zero: the browser's own).
	Viewport transport.Viewport
	// TestIDAttribute is the attribute testId locators compare ("": data-testid).
	TestIDAttribute string
	// LookupEnv reads {"env":…} text for act (nil: os.LookupEnv).
	LookupEnv func(string) (string, bool)
	// UploadRoot is the directory an upload's files must lie under, asked at each act (nil:
	// the working directory). A session host answers the directory of the command that
	// sent the act.
	UploadRoot func() string
	// Evidence is where captured evidence goes; nil refuses captureEvidence and captures
	// nothing on failure.
	Evidence *EvidenceOptions
	// Secrets collects every {"env":…} value the session resolves, and scrubs them from
	// everything the session returns. Share one Set with every output of the run (reports,
	// logs); nil gives the session a Set of its own.
	Secrets *secrets.Set
	// EdgeProxy set to EdgeProxyOff keeps the session's traffic off the egress proxy,
	// leaving in-browser enforcement alone. The default ("") routes a launched or loopback
	// browser through it (see startProxy).
	EdgeProxy string
	// Profile is a persistent profile: the absolute path of a directory (created 0700 when
	// missing) that the session's own launched browser uses as its user data directory, so
	// cookies and storage outlast the session. Nothing ever removes it, and Chromium holds it
	// exclusively (a second browser on it fails launch_failed). The session then runs in the
	// browser's default context (profile.go). Not with CDPURL or an Allocator.
	Profile string
	// UpstreamProxy is an http:// proxy (http://[user:password@]host[:port]) the egress
	// proxy dials every admitted destination through. The origin policy is enforced as
	// before, ahead of it; the password is a secret (never in output). It needs the egress
	// proxy: a launched or loopback browser, and EdgeProxy not off.
	UpstreamProxy string
	// Model is the model that task, extract and an act in words use (docs/models.md). Nil:
	// none, and those operations are refused model_required; nothing picks one.
	Model *model.Config
	// TLS, when set, is the CAs the session's browser trusts beyond the system's and the
	// client certificates it presents, carried by the egress proxy for as long as the
	// browser runs (tlstrust.go). It needs a browser fastbrowser launches, with LaunchOptions
	// of the same TLS (an Allocator's included), and the egress proxy.
	TLS *TLSTrust
	// OnBrowserCrash, when set, is called once, when the session first learns its browser
	// died (a call failed browser_crashed). The session's Allocator hears of it too: an
	// attached browser that is gone refuses later sessions at once.
	OnBrowserCrash func()
	// HandoffClasses are the page classes a person must handle (a multi-session host's
	// openSession): a hosted task on such a page is stopped with handoff_required.
	HandoffClasses []string
}

// EdgeProxyOff is the Options.EdgeProxy value that turns the egress proxy off.
const EdgeProxyOff = "off"

// Runtime is one browser session. It is a transport.Caller (typed calls via
// transport.Dispatch) and a wire.Handler (so `serve` can put it behind protocol v1).
type Runtime struct {
	alloc *Allocator
	// ownAlloc: alloc was made for this session alone (Options.Allocator was nil), so Close
	// closes it, stopping the browser it launched.
	ownAlloc bool
	// launched is the browser an Allocator launched that the session runs in (nil: attached).
	launched  *chromium.Browser
	cdpURL    string // attached: the DevTools endpoint the worker drives ("" when launched)
	worker    *workerProc
	base      policy.Policy
	turn      chan struct{} // one call at a time
	lookupEnv func(string) (string, bool)
	// uploadRoot: see Options.UploadRoot.
	uploadRoot func() string
	proxy      *egressproxy.Proxy            // nil: no edge enforcement
	proxySeen  int                           // proxy refusals already reported
	tlsSeen    uint64                        // the proxy's TLS failures already reported (tlsreport.go)
	tlsNotes   []string                      // TLS failures no operation's error took, for TLSWarnings
	edge       atomic.Pointer[policy.Policy] // the policy the proxy admits
	evidence   *EvidenceOptions
	secrets    *secrets.Set
	masks      workerMasks // what the worker was told of secrets (workermasks.go)
	crash      crashNotice
	model      model.Adapter // nil: no model (model_required)
	// pageDestinations are the host:ports the worker refused for pages (background.go);
	// used under turn.
	pageDestinations map[string]bool

	mu      sync.Mutex
	toTab   map[string]string // worker target ID → handle
	toTgt   map[string]string // handle → worker target ID
	handles int

	closeOnce sync.Once
	closeErr  error

	// tasks are the hosted tasks (tasklife.go), made on first use; clock is their leases'
	// (nil: time.Now; a test's own).
	tasks      hostedTasks
	hostedOnce sync.Once
	clock      func() time.Time
	handoff    map[string]bool // Options.HandoffClasses
}

// Open takes a browser from opts.Allocator (or launches or attaches one of its own) and
// starts the session's worker. On failure everything it started is stopped before it
// returns.
func Open(ctx context.Context, opts Options) (_ *Runtime, err error) {
	if opts.Allocator != nil {
		defer func() { err = opts.Allocator.opened(err) }()
	}
	base := policy.AllowAll()
	if len(opts.AllowedOrigins) > 0 {
		p, err := policy.Parse(opts.AllowedOrigins)
		if err != nil {
			return nil, transport.Invalid("", "allowedOrigins", "%s", err.Error())
		}
		base = p
	}
	if opts.EdgeProxy != "" && opts.EdgeProxy != EdgeProxyOff {
		return nil, transport.Invalid("", "edgeProxy", "expected %q or empty, got %q", EdgeProxyOff, opts.EdgeProxy)
	}
	if opts.WebRTC != "" && opts.WebRTC != WebRTCBlock && opts.WebRTC != WebRTCAllow {
		return nil, transport.Invalid("", "webrtc", "expected %q or %q, got %q", WebRTCBlock, WebRTCAllow, opts.WebRTC)
	}
	if !opts.Viewport.IsZero() {
		if err := opts.Viewport.Check(); err != nil {
			return nil, transport.Invalid("", "viewport", "%s", err.Error())
		}
	}
	if err := checkProfile(opts); err != nil {
		return nil, err
	}
	if err := checkTLS(opts); err != nil {
		return nil, err
	}
	r := &Runtime{base: base, turn: make(chan struct{}, 1), toTab: map[string]string{}, toTgt: map[string]string{}, lookupEnv: opts.LookupEnv, uploadRoot: opts.UploadRoot,
		evidence: opts.Evidence, secrets: opts.Secrets, crash: crashNotice{notify: opts.OnBrowserCrash}}
	if r.secrets == nil {
		r.secrets = secrets.New()
	}
	r.handoff = map[string]bool{}
	for _, c := range opts.HandoffClasses {
		r.handoff[c] = true
	}
	if opts.Model != nil {
		lookup := opts.LookupEnv
		if r.model, err = model.New(*opts.Model, lookup, r.secrets); err != nil {
			return nil, err
		}
		// The key is a secret from the start, not only from the first model call: a page may
		// show it (a provider's dashboard) before any task runs. The adapter still reads it
		// on each call; one too short to mask fails there, model_failed.
		if k := opts.Model.APIKeyEnv; k != "" {
			if lookup == nil {
				lookup = os.LookupEnv
			}
			if v, ok := lookup(k); ok && v != "" {
				_ = r.secrets.Add(v)
			}
		}
	}
	up, err := parseUpstream(opts, r)
	if err != nil {
		return nil, err
	}
	// The egress proxy and the worker start before the browser is launched or attached: the
	// worker, fastbrowser's own, waits for it on its input (--await-browser), so neither
	// start is paid after the launch. The proxy listens only where the browser is on this
	// machine (launched, or attached at a loopback endpoint).
	loopback := opts.CDPURL == "" || loopbackEndpoint(opts.CDPURL)
	if opts.Allocator != nil {
		loopback = opts.Allocator.onThisMachine()
	}
	if r.proxy, err = startProxy(base, opts, up, loopback, &r.edge); err != nil {
		return nil, proxyFailed(err)
	}
	r.alloc = opts.Allocator
	if r.alloc == nil {
		// With a profile the browser is launched behind the proxy (profile.go).
		r.alloc, r.ownAlloc = ownAllocator(base, opts, r.proxy), true
	}
	px := r.proxy
	if up != nil && px == nil {
		_ = r.Close()
		return nil, upstreamNeedsEdge()
	}
	if opts.TLS != nil && px == nil {
		_ = r.Close()
		return nil, tlsNeedsProxy()
	}
	args := workerFlags(base, opts, px)
	var early *earlyWorker
	if opts.WorkerPath == "" || opts.OwnWorker {
		// A browser the allocator launches is reached through a private socket: the worker
		// inherits one end as fd 3, and the browser's gate serves the other once it is up.
		if early, err = spawnEarlyWorker(opts, args, !r.alloc.Attached()); err != nil {
			_ = r.Close()
			return nil, err
		}
		defer func() {
			if early != nil { // not handed over: the session did not open
				early.stop()
			}
		}()
	}
	cdpURL, launched, err := r.alloc.acquire(ctx, opts.OnRelaunch)
	if err != nil {
		_ = r.Close()
		return nil, err
	}
	r.launched, r.cdpURL = launched, cdpURL
	if err := checkWebRTC(base, opts, launched, cdpURL, px); err != nil {
		_ = r.Close()
		return nil, err
	}
	var c *workerProc
	switch {
	case early != nil:
		c, err = early.connect(ctx, launched, cdpURL)
		early = nil // connect stops it on failure
	case launched != nil:
		// Another program's worker takes a URL: the browser's token websocket.
		url := launched.WebSocketURL()
		if url == "" {
			err = transport.NewError("", transport.PhaseDispatch, transport.CodeLaunchFailed, transport.RetryNever, transport.NotAttempted, "the browser has no endpoint for the worker (see the log)")
			break
		}
		c, err = startWorker(ctx, opts.WorkerPath, append(append(append([]string{}, opts.WorkerArgs...), "--cdp-url", url), args...), opts.Log)
	default:
		c, err = startWorker(ctx, opts.WorkerPath, append(append(append([]string{}, opts.WorkerArgs...), "--cdp-url", cdpURL), args...), opts.Log)
	}
	if err != nil {
		_ = r.Close()
		return nil, err
	}
	r.worker = c
	return r, nil
}

// workerFlags are the worker's flags but --cdp-url: all are known before its browser is.
func workerFlags(base policy.Policy, opts Options, px *egressproxy.Proxy) []string {
	var args []string
	switch {
	case opts.Profile != "":
		args = append(args, "--default-context") // its proxy is the browser's own (profile.go)
	case px != nil:
		args = append(args, "--proxy-server", px.URL())
	}
	for _, o := range base.Origins() {
		args = append(args, "--allowed-origin", o)
	}
	if opts.Subresources != "" {
		args = append(args, "--egress-subresources", opts.Subresources)
	}
	if opts.ServiceWorkers != "" {
		args = append(args, "--service-workers", opts.ServiceWorkers)
	}
	if opts.WebRTC != "" {
		args = append(args, "--webrtc", opts.WebRTC)
	}
	if !opts.Viewport.IsZero() {
		args = append(args, "--viewport", opts.Viewport.String())
	}
	if opts.TestIDAttribute != "" {
		args = append(args, "--test-id-attribute", opts.TestIDAttribute)
	}
	return args
}

// BrowserVersion is the product string the worker read from the browser (e.g.
// "Chrome/156.0.8078.73").
func (r *Runtime) BrowserVersion() string { return r.worker.Ready().Browser }

// Attached reports whether the session's browser is not fastbrowser's: attached at a
// DevTools URL rather than launched by an Allocator (its own or one shared with other
// sessions, like `run`'s).
func (r *Runtime) Attached() bool { return r.launched == nil }

// WorkerPid is the worker's process id (tests use it to inject a crash).
func (r *Runtime) WorkerPid() int { return r.worker.Pid() }

// Handle lets a Runtime serve protocol v1 (see wire.Serve). Serve validated the request
// when it decoded the frame, so it is not validated again.
func (r *Runtime) Handle(ctx context.Context, op transport.Operation, octx *transport.OperationContext) (transport.Result, error) {
	if err := r.refuseWhileHosted(op); err != nil {
		return nil, err
	}
	return r.call(ctx, op, octx)
}

// Call validates op (the library's entry point: transport.Validate), applies the origin
// policy and translates tab handles, then runs it on the worker. The caller's op is left as
// it was. Calls are serialised: a second caller waits its turn within its own context.
func (r *Runtime) Call(ctx context.Context, op transport.Operation, octx *transport.OperationContext) (transport.Result, error) {
	if err := transport.Validate(op); err != nil {
		return nil, err
	}
	if transport.SpecOf(op).Host {
		return nil, transport.Invalid(op.OpName(), "op", "%s is the multi-session host's: start `fastbrowser serve --binding-origin ORIGIN …`", op.OpName())
	}
	if err := r.refuseWhileHosted(op); err != nil {
		return nil, err
	}
	return r.call(ctx, op, octx)
}

// call runs a validated request. It works on its own copy: the caller's value never comes
// back holding a worker target id, a resolved secret or merged redaction rules. What the
// runtime does for one operation only (answer, prepare, commit) is its hook (hooks.go).
func (r *Runtime) call(ctx context.Context, op transport.Operation, octx *transport.OperationContext) (transport.Result, error) {
	op = transport.CopyOf(op) // the runtime rewrites tab handles, {"env":…} text and redaction on its own copy
	name := op.OpName()
	if transport.SpecOf(op).Internal {
		// The runtime's own to its worker (workermasks.go): no parent of a session sends it.
		return nil, transport.Invalid(name, "op", "unknown operation %q", name)
	}
	pol, err := r.effective(name, octx)
	if err != nil {
		return nil, err
	}
	if answer := answerHooks[name]; answer != nil {
		// The runtime's own answer (hooks.go): its worker calls, if any, go through call, so
		// it takes no turn here.
		return answer(r, ctx, op, octx)
	}
	if prepare := prepareHooks[name]; prepare != nil {
		if err := prepare(r, op, pol); err != nil {
			return nil, err
		}
	}
	select {
	case r.turn <- struct{}{}:
		defer func() { <-r.turn }()
	case <-ctx.Done():
		return nil, transport.NewError(name, transport.PhaseDispatch, transport.CodeCancelled, transport.RetrySafe, transport.NotAttempted, "cancelled while waiting for the session")
	}
	if err := r.toTargets(name, op); err != nil {
		return nil, err
	}
	r.edge.Store(&pol)
	var res transport.Result
	carried, err := r.maskInWorker(ctx, op)
	if err == nil {
		res, err = r.worker.Call(ctx, op, octx)
		r.typedDone(carried, err)
	}
	err = r.browserDied(op, err)
	res, err = r.withProxyBlocked(name, res, err)
	res, err = r.withTLS(name, res, err)
	if err != nil {
		// Scrubbed first: the evidence beside the error is metadata the runtime wrote.
		if noEvidence(ctx) {
			return nil, r.scrubError(name, err)
		}
		return nil, r.withFailureEvidence(op, r.scrubError(name, err))
	}
	if commit := commitHooks[name]; commit != nil {
		if res, err = commit(r, op, res); err != nil {
			return nil, err
		}
	}
	r.toHandles(res)
	return r.scrubResult(op, res)
}

func (r *Runtime) effective(op string, octx *transport.OperationContext) (policy.Policy, error) {
	if octx == nil {
		return r.base, nil
	}
	return r.narrow(op, "context.origins", octx.Origins)
}

// toTargets rewrites the request's tab handles to worker target IDs in place (in call's own
// copy of the request).
func (r *Runtime) toTargets(op string, req transport.Operation) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, p := range transport.TabRefs(req) {
		tgt, ok := r.toTgt[*p]
		if !ok {
			return transport.NewError(op, transport.PhaseValidate, transport.CodeTabNotFound, transport.RetryNever, transport.NotAttempted, "no tab with handle %q in this session", *p).WithPath("request.tab")
		}
		*p = tgt
	}
	return nil
}

// toHandles rewrites the result's target IDs to handles, issuing a handle the first time a
// target is seen. Handles are "t1", "t2", … in the order the session first sees tabs.
func (r *Runtime) toHandles(res transport.Result) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, p := range transport.TabRefs(res) {
		h, ok := r.toTab[*p]
		if !ok {
			r.handles++
			h = "t" + strconv.Itoa(r.handles)
			r.toTab[*p], r.toTgt[h] = h, *p
		}
		*p = h
	}
}

// Close ends the session: the worker closes its browser context and exits, then the browser
// (when owned) is stopped and its profile removed. Idempotent; waits for teardown.
func (r *Runtime) Close() error {
	r.closeOnce.Do(func() {
		r.stopHosted() // before the worker goes: a loop's last call is answered, not cut
		var errs []error
		if r.worker != nil {
			errs = append(errs, r.worker.Close())
		}
		if r.ownAlloc {
			errs = append(errs, r.alloc.Close())
		}
		if r.proxy != nil {
			errs = append(errs, r.proxy.Close())
		}
		r.closeErr = errors.Join(errs...)
	})
	return r.closeErr
}
