package conformance

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/fastbrowser/fastbrowser/artifacts"
	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/runtime"
	"github.com/fastbrowser/fastbrowser/runtime/chromium"
	"github.com/fastbrowser/fastbrowser/runtime/registry"
	"github.com/fastbrowser/fastbrowser/scenarios/fixture"
	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/policy"
	"github.com/fastbrowser/fastbrowser/transport/secrets"
)

// Options configures a run.
type Options struct {
	// WorkerPath and WorkerArgs are the worker's command line; the runtime appends its own
	// flags (--cdp-url, --allowed-origin, …) after WorkerArgs. "" runs this binary's own
	// "worker" subcommand.
	WorkerPath string
	WorkerArgs []string
	// FixtureURL is a site serving the fixture's pages (`fastbrowser fixture serve`); ""
	// serves the embedded fixture in-process on a free loopback port.
	FixtureURL string
	// Executable is the Chromium to launch ("" → /usr/bin/chromium).
	Executable string
	// Out receives one line per check as it runs (nil discards).
	Out io.Writer
	// Log receives Chromium's and the worker's stderr (nil discards).
	Log io.Writer
	// Config is the host's session configuration (fastbrowser.json's "session" block): the
	// suite's sessions are opened through a registry.Host with it, so its defaults, request
	// bound and ceilings are what the checks meet. nil: the budgets' own.
	Config *registry.Config
	// BindingOrigins is the host's binding; it must allow the fixture's origin. nil: the
	// Config's bindingOrigins, else the fixture's origin and a loopback canary of its own
	// (so narrowing can be seen to exclude an origin the binding allows).
	BindingOrigins []string
	// Store is the host's evidence store the sessions commit screenshots to. nil: a
	// temporary one the suite removes.
	Store *artifacts.Store
	// ReadAsset reads back an evidence asset a result names (its ref: the path in the
	// store), checked against its sha256. nil: read from the store's directory.
	ReadAsset func(transport.ArtifactMeta) ([]byte, error)
	// WrapHost, if set, is given the multi-session host the suite opens and returns the one
	// its tasks talk to: every openSession, closeSession and endTask, and every call in a
	// session (with the frame's session and task on its context, transport.OwnerOf), goes
	// through what it returns. It is for fault injection: a host that does not enforce
	// ownership must fail task-ownership-refusals. The suite still closes, and reads worker
	// pids from, the host it opened. nil: the suite's tasks talk to that host directly.
	WrapHost func(Host) Host
}

// Host is what the suite's tasks send their requests to: a multi-session host
// (registry.Host, the wire.Handler that `serve --binding-origin` puts behind protocol v1).
type Host interface {
	Handle(ctx context.Context, op transport.Operation, octx *transport.OperationContext) (transport.Result, error)
}

// secretEnv is the {"env":…} name the masked value is typed from; the runtime resolves it
// through the suite's own lookup, never the process environment.
const secretEnv = "FASTBROWSER_CONFORMANCE_SECRET"

// env is one run's world: the fixture, the canaries, the browser, the store, the host and
// the session most checks run in.
type env struct {
	fixture   string // the fixture's origin, no trailing slash
	canary    *fixture.Canary
	canaryURL string
	// inside is a canary inside the default binding but outside every session the suite
	// opens ("" when the caller gave the binding).
	inside    *fixture.Canary
	insideURL string
	browser   *chromium.Browser
	store     *artifacts.Store
	host      *registry.Host // the host the suite opened: it closes it and reads its worker pids
	calls     Host           // where the tasks' requests go: host, or Options.WrapHost's wrapper of it
	cfg       *registry.Config
	binding   []string
	ends      *endLog
	rt        transport.Caller // the main session, through the host as its task calls it
	main      string           // the main session's id
	secret    string
	worker    int // the main session's worker pid, read at open
	readAsset func(transport.ArtifactMeta) ([]byte, error)
}

// Run runs every check in order, printing each one's line and then the summary, and returns
// the report. The session is closed, the browser stopped and every temporary file removed
// before it returns, whatever failed. An error is returned only when the suite could not
// start (the report then holds an "open" failure).
func Run(ctx context.Context, opts Options) (*Report, error) {
	out := opts.Out
	if out == nil {
		out = io.Discard
	}
	ctx, cancel := context.WithTimeout(ctx, budgets.ScenarioRun().Default)
	defer cancel()
	rep := &Report{Worker: workerLine(opts)}
	e, stop, err := open(ctx, opts)
	defer stop()
	if err != nil {
		rep.add(out, Result{Name: "open", Status: StatusFail, Message: err.Error()})
		fmt.Fprintln(out, rep.Summary())
		return rep, err
	}
	rep.Fixture = e.fixture
	for _, c := range checks {
		start := time.Now()
		res := Result{Name: c.name, Status: StatusPass}
		if err := c.run(ctx, e); err != nil {
			res.Status, res.Message = StatusFail, scrub(err.Error(), e.secret)
		}
		res.DurationMs = time.Since(start).Milliseconds()
		rep.add(out, res)
	}
	fmt.Fprintln(out, rep.Summary())
	return rep, nil
}

// scrub keeps the suite's own secret out of a message even when a worker leaked it.
func scrub(msg, secret string) string { return strings.ReplaceAll(msg, secret, secrets.Mask) }

func workerLine(opts Options) []string {
	if opts.WorkerPath == "" {
		return []string{"(this binary)", "worker"}
	}
	return append([]string{opts.WorkerPath}, opts.WorkerArgs...)
}

// open starts everything a run needs. stop undoes whatever was started (the session first,
// then the browser and servers) and is safe to call after no-process-left closed some of it.
func open(ctx context.Context, opts Options) (_ *env, stop func(), err error) {
	e := &env{cfg: opts.Config, ends: newEndLog()}
	var stops []func()
	stop = func() {
		for i := len(stops) - 1; i >= 0; i-- {
			stops[i]()
		}
	}
	defer func() {
		if err != nil {
			stop()
			stop = func() {}
		}
	}()
	if e.fixture, err = fixtureOrigin(opts.FixtureURL, &stops); err != nil {
		return nil, stop, fmt.Errorf("fixture URL: %w", err)
	}
	var canarySrv *httptest.Server
	e.canary, canarySrv = fixture.NewCanaryServer()
	e.canaryURL = canarySrv.URL
	stops = append(stops, canarySrv.Close)
	if e.binding, err = e.bindingOf(opts, &stops); err != nil {
		return nil, stop, err
	}
	if e.secret, err = newSecret(); err != nil {
		return nil, stop, err
	}
	if e.store = opts.Store; e.store == nil {
		dir, err := os.MkdirTemp("", "fastbrowser-conformance-*")
		if err != nil {
			return nil, stop, err
		}
		stops = append(stops, func() { _ = os.RemoveAll(dir) })
		if e.store, err = artifacts.Open(dir, "conformance"); err != nil {
			return nil, stop, err
		}
		stops = append(stops, func() { _ = e.store.Close() })
	}
	e.readAsset = opts.ReadAsset
	if e.readAsset == nil {
		e.readAsset = func(a transport.ArtifactMeta) ([]byte, error) {
			return os.ReadFile(filepath.Join(e.store.Root(), a.Path))
		}
	}
	// The suite launches the browser itself so that no-process-left can name its process
	// and profile; the session attaches to it like any session of a shared browser.
	if e.browser, err = chromium.Launch(ctx, chromium.Options{Executable: opts.Executable, Log: opts.Log}); err != nil {
		return nil, stop, err
	}
	stops = append(stops, func() { _ = e.browser.Close() })
	// Every session is opened through the registry, as a host opens a task's: ownership,
	// idle expiry, narrowing, batches and the session config are the host's, the browser
	// work the worker's.
	e.host, err = registry.New(registry.Options{
		Binding: e.binding,
		Config:  opts.Config,
		OnEnd:   e.ends.note,
		Session: runtime.Options{
			Allocator:  runtime.NewAttachAllocator(e.browser.WebSocketURL()),
			WorkerPath: opts.WorkerPath,
			WorkerArgs: opts.WorkerArgs,
			Log:        opts.Log,
			LookupEnv:  func(name string) (string, bool) { return e.secret, name == secretEnv },
			Evidence:   &runtime.EvidenceOptions{Store: e.store, RunID: "conformance", Owner: "conformance"},
		},
	})
	if err != nil {
		return nil, stop, fmt.Errorf("the session host: %w", err)
	}
	stops = append(stops, func() { _ = e.host.Close() })
	if e.calls = Host(e.host); opts.WrapHost != nil {
		e.calls = opts.WrapHost(e.host)
	}
	// The main session hands off on nothing, whatever the config's handoffClasses: its
	// checks visit sign-in pages on purpose (handoff-ends-batch tests handoff).
	main, err := e.openSession(ctx, mainTask, transport.OpenSession{HandoffClasses: []string{}})
	if err != nil {
		return nil, stop, fmt.Errorf("the worker session could not be opened: %w", err)
	}
	e.rt, e.main = main, main.id
	e.worker = e.host.WorkerPid(main.id)
	return e, stop, nil
}

// bindingOf is the host's binding: the caller's, the config's, or the fixture's origin and
// a canary of the suite's own that no session is given. It must allow the fixture.
func (e *env) bindingOf(opts Options, stops *[]func()) ([]string, error) {
	binding := opts.BindingOrigins
	if binding == nil && opts.Config != nil {
		binding = opts.Config.BindingOrigins
	}
	if binding == nil {
		var srv *httptest.Server
		e.inside, srv = fixture.NewCanaryServer()
		e.insideURL = srv.URL
		*stops = append(*stops, srv.Close)
		return []string{e.fixture, srv.URL}, nil
	}
	b, err := policy.Parse(binding)
	if err != nil {
		return nil, fmt.Errorf("binding origins: %w", err)
	}
	if !b.AllowsOrigin(e.fixture) {
		return nil, fmt.Errorf("binding origins %v do not allow the fixture %s", b.Origins(), e.fixture)
	}
	return binding, nil
}

// fixtureOrigin is the origin of the fixture at raw, or of the embedded fixture served on a
// free loopback port when raw is "".
func fixtureOrigin(raw string, stops *[]func()) (string, error) {
	if raw == "" {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return "", err
		}
		srv := &http.Server{Handler: fixture.Handler(), ReadHeaderTimeout: budgets.Request().Default}
		go func() { _ = srv.Serve(ln) }()
		*stops = append(*stops, func() { _ = srv.Close() })
		return "http://" + ln.Addr().String(), nil
	}
	return FixtureOrigin(raw)
}

// FixtureOrigin is the origin of a fixture URL (the session's policy allows it alone), or
// why raw is not one.
func FixtureOrigin(raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil {
		return "", errors.New("expected an http or https URL such as http://127.0.0.1:4310, got " + fmt.Sprintf("%q", raw))
	}
	return u.Scheme + "://" + u.Host, nil
}

// newSecret is a fresh value per run, so a worker cannot know it in advance.
func newSecret() (string, error) {
	b := make([]byte, 12)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return "cf-" + hex.EncodeToString(b), nil
}
