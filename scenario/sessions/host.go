package sessions

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"maps"
	"net"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/runtime"
	"github.com/fastbrowser/fastbrowser/scenario"
	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/secrets"
	"github.com/fastbrowser/fastbrowser/transport/textclip"
	"github.com/fastbrowser/fastbrowser/transport/wire"
)

// Host calls (transport/wire/hostcall.go): what a session command asks its host.
const (
	CallDo       = "do"
	CallDescribe = "describe"
	CallExport   = "export"
	CallClose    = "close"
)

// HostConfig is what the host process is started with.
type HostConfig struct {
	Dir *Dir
	// Runtime is the runtime's options from the session's Options (the CLI builds them: the
	// browser, worker and artifact store); the host adds the secret set and the env lookup.
	Runtime runtime.Options
	// Ready receives the open result (or the error) as one JSON line once the host is
	// ready, then is closed: `session open` waits on it.
	Ready io.WriteCloser
	// ArtifactRoot is the artifact store's root: artifact paths in results are made
	// absolute with it.
	ArtifactRoot string
}

// Host is one session's host: the runtime it owns, the live scenario its operations build,
// and what it last saw of the page.
type Host struct {
	dir     *Dir
	rt      *runtime.Runtime
	secrets *secrets.Set
	live    *scenario.Live
	idle    time.Duration
	// artifactRoot: see HostConfig.ArtifactRoot.
	artifactRoot string

	busy sync.Mutex // one command at a time: TryLock, never a queue

	// callEnv is the {"env":…} values the running do's command sent: the runtime reads
	// {"env"} text from here, never from the host's own environment. Used under busy.
	callEnv map[string]string
	// hasModel: the session has a model (--model); keyEnv names the variable that holds its
	// API key ("" : none is sent), whose value each do sends in callEnv; modelName is the
	// model as describe shows it.
	hasModel  bool
	keyEnv    string
	modelName *ModelName
	// envVars are the variables earlier dos gave as {"env"}: name → environment variable
	// (Record.EnvVariables). Used under busy.
	envVars map[string]string
	// callDir is the running do's working directory: its uploads must lie under it.
	callDir string
	// page is the selected page after the last command (the outline a by-ID target is
	// resolved in). Used under busy.
	page pageView
	// refs: every ref an outline of the session showed (see refBook). Used under busy.
	refs refBook
	// status is the HTTP status the last navigate or reload reported, for its document
	// statusDoc (see pageStatus).
	status     int
	statusDoc  string
	finishOnce sync.Once
	finishErr  error
	// conns are the connections being answered: the host answers them before it exits.
	conns sync.WaitGroup
	// history is how many operations do has recorded (the next one's index).
	history int
	// unlockProfile frees --profile (nil without one): stop calls it once the browser is
	// gone, before close answers, so that the profile is free when close has printed.
	unlockProfile func()

	timerMu   sync.Mutex
	timer     *time.Timer
	ended     chan struct{} // closed when the session ends
	endReason string        // why; set before ended closes
	endOnce   sync.Once
}

// RunHost is the session host process's body: it opens the session, says so on
// cfg.Ready, serves commands on the session's socket until the session ends (idle, close,
// a browser crash, a signal via ctx), then stops everything it started and records why.
func RunHost(ctx context.Context, cfg HostConfig) error {
	h := &Host{dir: cfg.Dir, artifactRoot: cfg.ArtifactRoot, ended: make(chan struct{}), secrets: secrets.New()}
	// A host that fails to start says why on the ready line and leaves the record alone:
	// `session open` removes the directory of a session that never opened (and the sweep
	// one whose open died too), and a second host for a live session must not end it.
	fail := func(err error) error {
		writeReady(cfg.Ready, nil, err)
		return err
	}
	release, err := h.dir.LockHost()
	if err != nil {
		return fail(Errorf(CodeFailed, "session %s already has a host", h.dir.ID))
	}
	defer release()
	rec, err := h.dir.Record()
	if err != nil {
		return fail(Errorf(CodeFailed, "session %s: its record cannot be read", h.dir.ID))
	}
	h.idle = time.Duration(rec.Options.IdleTimeoutMs) * time.Millisecond
	h.envVars = rec.EnvVariables
	if m := rec.Options.Model; m != nil {
		h.hasModel, h.keyEnv, h.modelName = true, m.APIKeyEnv, rec.Options.modelName()
	}
	if rec.Options.Profile != "" {
		unlock, err := LockProfile(rec.Options.Profile, rec.ID)
		if err != nil {
			return fail(err)
		}
		defer unlock()
		h.unlockProfile = unlock
	}
	ln, err := listen(h.dir.SocketPath())
	if err != nil {
		return fail(Errorf(CodeLaunchFailed, "the session's socket could not be opened"))
	}
	defer os.Remove(h.dir.SocketPath())
	defer ln.Close()

	opts := cfg.Runtime
	opts.Secrets = h.secrets
	opts.LookupEnv = h.lookupEnv
	opts.UploadRoot = func() string { return h.callDir }
	if opts.Log != nil { // FASTBROWSER_DEBUG: Chromium's and the worker's stderr, masked
		w := h.secrets.Writer(opts.Log)
		defer w.Flush()
		opts.Log = w
	}
	opened, err := h.open(ctx, opts, rec)
	if err != nil {
		return fail(err)
	}
	defer h.rt.Close()
	rec, err = h.dir.Update(func(r *Record) {
		r.State, r.HostPid, r.CDPURL, r.TempProfile = StateOpen, os.Getpid(), h.rt.DevToolsURL(), h.rt.ProfileDir()
		r.URL, r.Title = h.page.URL, h.page.Title
		if r.Options.URL != "" {
			r.LandedURL = h.page.URL
		}
		r.IdleDeadline = time.Now().Add(h.idle)
	})
	if err != nil {
		return fail(Errorf(CodeFailed, "session %s: its record cannot be written", h.dir.ID))
	}
	opened.IdleDeadline = rec.IdleDeadline
	writeReady(cfg.Ready, opened, nil)

	h.armIdle()
	go h.watchBrowser()
	go h.accept(ctx, ln)
	select {
	case <-h.ended:
	case <-ctx.Done():
		h.end(EndClosed)
	}
	ln.Close()
	err = h.finish()
	h.awaitConns()
	return err
}

// awaitConns lets the answers being written (close's, a busy refusal) reach their
// commands before the process exits; bounded.
func (h *Host) awaitConns() {
	done := make(chan struct{})
	go func() { h.conns.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(budgets.SessionConnect):
	}
}

// finish ends the session, once, for the reason end recorded: the browser and everything
// of the runtime stop first, then the record says why (close without --keep removes the
// session's directory instead).
func (h *Host) finish() error {
	h.finishOnce.Do(func() { h.finishErr = h.stop(h.endReason) })
	return h.finishErr
}

func (h *Host) stop(reason string) error {
	h.timerMu.Lock()
	if h.timer != nil {
		h.timer.Stop()
	}
	h.timerMu.Unlock()
	err := h.rt.Close()
	if err == nil && h.unlockProfile != nil {
		h.unlockProfile() // a browser that was not reaped may still use it: held till exit
	}
	_ = os.Remove(h.dir.SocketPath())
	if reason == endRemoved {
		return errors.Join(err, h.dir.Remove())
	}
	_, uerr := h.dir.Update(func(r *Record) {
		r.State, r.Reason, r.EndedAt = StateEnded, reason, time.Now()
	})
	return errors.Join(err, uerr)
}

// endRemoved is the internal end reason of `session close` without --keep.
const endRemoved = "removed"

func (h *Host) end(reason string) {
	h.endOnce.Do(func() { h.endReason = reason; close(h.ended) })
}

// lookupEnv is the runtime's {"env":…} lookup: only what the running do sent.
func (h *Host) lookupEnv(name string) (string, bool) {
	v, ok := h.callEnv[name]
	return v, ok
}

// armIdle (re)starts the idle deadline from now.
func (h *Host) armIdle() time.Time {
	deadline := time.Now().Add(h.idle)
	h.timerMu.Lock()
	defer h.timerMu.Unlock()
	if h.timer != nil {
		h.timer.Stop()
	}
	h.timer = time.AfterFunc(h.idle, func() {
		// A command that runs now renews the deadline when it ends; only a host with
		// nothing running ends.
		if h.busy.TryLock() {
			h.end(EndIdle)
		}
	})
	return deadline
}

// noteCrash ends the session when err says its worker or browser died: the runtime starts
// its worker once, so no later operation could run (an attached browser's death, too, is
// learnt only so). The command that found it still answers.
func (h *Host) noteCrash(err error) {
	if errors.Is(err, transport.ErrCode(transport.CodeWorkerCrashed)) || errors.Is(err, transport.ErrCode(transport.CodeBrowserCrashed)) {
		h.end(EndCrashed)
	}
}

// watchBrowser ends the session when the browser it launched exits.
func (h *Host) watchBrowser() {
	done := h.rt.BrowserDone()
	if done == nil {
		return
	}
	<-done
	h.end(EndCrashed)
}

func listen(path string) (net.Listener, error) {
	_ = os.Remove(path) // a socket a killed host left; the host lock proves it is not in use
	ln, err := net.Listen("unix", path)
	if err != nil {
		return nil, err
	}
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		return nil, err
	}
	return ln, nil
}

// accept serves connections until the listener closes. A failed accept (out of file
// descriptors: a burst of commands) is tried again after a pause rather than ending the
// host's listening while its session stays open.
func (h *Host) accept(ctx context.Context, ln net.Listener) {
	for {
		c, err := ln.Accept()
		if errors.Is(err, net.ErrClosed) {
			return
		}
		if err != nil {
			select {
			case <-h.ended:
				return
			case <-time.After(budgets.SessionAcceptRetry):
			}
			continue
		}
		h.conns.Add(1)
		go h.serveConn(ctx, c)
	}
}

func (h *Host) serveConn(ctx context.Context, c net.Conn) {
	defer h.conns.Done()
	defer c.Close()
	_ = wire.ServeHostCall(ctx, c, transport.ReadyInfo{Browser: h.rt.BrowserVersion()}, budgets.SessionRequestRead, h.handle)
}

// handle answers one command with what the command prints: its result, or its error as
// {"error":{…}} (a result on the wire, so that no field of the session error is lost).
func (h *Host) handle(ctx context.Context, op string, raw json.RawMessage) (any, error) {
	res, err := h.command(ctx, op, raw)
	if err != nil {
		return ErrorOutput{Error: AsError(h.scrubError(err))}, nil
	}
	return res, nil
}

// scrubError masks the session's secrets in an error's message.
func (h *Host) scrubError(err error) error {
	b := AsError(err)
	b.Message = h.secrets.Scrub(b.Message)
	return errorOf(*b)
}

// command answers one command: at once with session_busy while another runs.
func (h *Host) command(ctx context.Context, op string, raw json.RawMessage) (any, error) {
	if err := h.endedError(); err != nil {
		return nil, err
	}
	if !h.busy.TryLock() {
		if err := h.endedError(); err != nil { // the idle end holds the lock for good
			return nil, err
		}
		return nil, Errorf(CodeBusy, "session %s is running another command; commands on one session run one at a time", h.dir.ID)
	}
	defer h.busy.Unlock()
	if err := h.endedError(); err != nil {
		return nil, err
	}
	h.armIdle()
	defer h.touch()
	switch op {
	case CallDo:
		return h.do(ctx, raw)
	case CallDescribe:
		return h.describe(ctx, raw)
	case CallExport:
		return h.export(raw)
	case CallClose:
		return h.closeSession(raw)
	}
	return nil, Errorf(CodeInvalidInput, "unknown host call %q", textclip.Clip(op, 32))
}

// noteStatus keeps the HTTP status a navigate or reload reported for its document.
func (h *Host) noteStatus(nav *transport.NavigateResult) {
	h.status, h.statusDoc = nav.Status, nav.DocumentID
}

// pageStatus is the HTTP status of the page last seen: known only while it is the document
// the last navigate or reload reported on (a click that led elsewhere makes it unknown, 0).
func (h *Host) pageStatus() int {
	if h.page.doc == "" || h.page.doc != h.statusDoc {
		return 0
	}
	return h.status
}

// artifactPath is an artifact's store-relative path made absolute.
func (h *Host) artifactPath(rel string) string {
	if rel == "" || filepath.IsAbs(rel) {
		return rel
	}
	return filepath.Join(h.artifactRoot, rel)
}

// endedError is session_ended once the session has ended.
func (h *Host) endedError() error {
	select {
	case <-h.ended:
		return Errorf(CodeEnded, "session %s has ended (%s)", h.dir.ID, h.endReason)
	default:
		return nil
	}
}

// touch renews the idle deadline after a command and records it with the page it left.
func (h *Host) touch() {
	deadline := h.armIdle()
	_, _ = h.dir.Update(func(r *Record) {
		if r.State == StateOpen {
			r.IdleDeadline, r.URL, r.Title, r.HistoryLength = deadline, h.page.URL, h.page.Title, h.history
			r.EnvVariables = maps.Clone(h.envVars)
		}
	})
}

// writeReady sends `session open` its one line: the open result, or the error.
func writeReady(w io.WriteCloser, res *OpenResult, err error) {
	if w == nil {
		return
	}
	var v any = res
	if err != nil {
		v = ErrorOutput{Error: AsError(err)}
	}
	enc := json.NewEncoder(w) // one line, and no HTML escaping (outlines hold ->, < and &)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	_ = w.Close()
}
