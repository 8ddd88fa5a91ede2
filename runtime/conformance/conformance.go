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
	"strings"
	"time"

	"github.com/fastbrowser/fastbrowser/artifacts"
	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/runtime"
	"github.com/fastbrowser/fastbrowser/runtime/chromium"
	"github.com/fastbrowser/fastbrowser/scenarios/fixture"
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
}

// secretEnv is the {"env":…} name the masked value is typed from; the runtime resolves it
// through the suite's own lookup, never the process environment.
const secretEnv = "FASTBROWSER_CONFORMANCE_SECRET"

// env is one run's world: the fixture, the canary, the browser, the store and the session.
type env struct {
	fixture   string // the fixture's origin, no trailing slash
	canary    *fixture.Canary
	canaryURL string
	browser   *chromium.Browser
	store     *artifacts.Store
	rt        *runtime.Runtime
	secret    string
	worker    int // the worker's pid, read at open
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
	e := &env{}
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
	if e.secret, err = newSecret(); err != nil {
		return nil, stop, err
	}
	dir, err := os.MkdirTemp("", "fastbrowser-conformance-*")
	if err != nil {
		return nil, stop, err
	}
	stops = append(stops, func() { _ = os.RemoveAll(dir) })
	if e.store, err = artifacts.Open(dir, "conformance"); err != nil {
		return nil, stop, err
	}
	stops = append(stops, func() { _ = e.store.Close() })
	// The suite launches the browser itself so that no-process-left can name its process
	// and profile; the session attaches to it like any session of a shared browser.
	if e.browser, err = chromium.Launch(ctx, chromium.Options{Executable: opts.Executable, Log: opts.Log}); err != nil {
		return nil, stop, err
	}
	stops = append(stops, func() { _ = e.browser.Close() })
	e.rt, err = runtime.Open(ctx, runtime.Options{
		Allocator:      runtime.NewAttachAllocator(e.browser.WebSocketURL()),
		AllowedOrigins: []string{e.fixture},
		WorkerPath:     opts.WorkerPath,
		WorkerArgs:     opts.WorkerArgs,
		Log:            opts.Log,
		LookupEnv:      func(name string) (string, bool) { return e.secret, name == secretEnv },
		Evidence:       &runtime.EvidenceOptions{Store: e.store, RunID: "conformance", Owner: "conformance"},
	})
	if err != nil {
		return nil, stop, fmt.Errorf("the worker session could not be opened: %w", err)
	}
	stops = append(stops, func() { _ = e.rt.Close() })
	e.worker = e.rt.WorkerPid()
	return e, stop, nil
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
