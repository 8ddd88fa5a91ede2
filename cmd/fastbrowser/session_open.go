package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/runtime/chromium"
	"github.com/fastbrowser/fastbrowser/runtime/model"
	"github.com/fastbrowser/fastbrowser/scenario/sessions"
	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/policy"
)

func sessionOpenCommand(st *state) *cli.Command {
	return &cli.Command{
		Name:      "open",
		Usage:     "start a session: a host process that keeps one browser open for later session commands; prints its id, the page and cdp_url",
		UsageText: "fastbrowser session open [URL] [--allowed-origin ORIGIN ...] [--allowed-domain DOMAIN ...] [--idle-timeout 30m] [--headed] [--viewport WxH] [--browser PATH | --cdp-url URL] [--profile DIR] [--proxy URL] [--trusted-ca FILE ...] [--client-cert ORIGIN=CERTFILE,KEYFILE ...] [--artifacts DIR] [--model PROVIDER:MODEL [--model-base-url URL] [--model-api-key-env NAME]]",
		Flags: append(append(append(browserFlags(), modelFlags()...), tlsFlags()...),
			&cli.StringSliceFlag{Name: "allowed-origin", Usage: "exact origin the session may load (repeat; default: the URL's origin; \"*\" for any http/https origin, explicitly)"},
			&cli.StringSliceFlag{Name: "allowed-domain", Usage: "a `DOMAIN` whose host and subdomains the session may load, over http and https on any port (repeat; with or instead of --allowed-origin)"},
			&cli.DurationFlag{Name: "idle-timeout", Value: budgets.SessionIdle().Default, Usage: "end the session after this long without a command (at most 24h)"},
			&cli.StringFlag{Name: "viewport", Usage: "lay pages out at `WxH` CSS pixels (default: the browser's own)"},
			&cli.StringFlag{Name: "profile", Usage: "a persistent browser profile `DIR` the session holds alone (default: a fresh temporary one)"},
			&cli.StringFlag{Name: "proxy", Usage: "upstream HTTP proxy `URL` the egress proxy dials through"},
			&cli.StringFlag{Name: "artifacts", Usage: "private artifact store `DIR` (0700) for screenshots (default: the session's own directory)"},
		),
		Action: func(c *cli.Context) error {
			opts, err := openOptions(c)
			if err != nil {
				return sessionFailure(st, err)
			}
			store, err := sessionStore(st)
			if err != nil {
				return sessionFailure(st, err)
			}
			out, err := startHost(c.Context, st, store, opts)
			if err != nil {
				return sessionFailure(st, err)
			}
			return printHostOutput(st, out)
		},
	}
}

// openOptions checks open's flags: a usage error (exit 2) for a malformed flag, and
// invalid_input for a value over its limit.
func openOptions(c *cli.Context) (sessions.Options, error) {
	if c.NArg() > 1 {
		return sessions.Options{}, sessionUsageError("expected at most one argument: the URL to open")
	}
	if err := checkBrowserFlags(c); err != nil {
		return sessions.Options{}, sessionUsageError(err.Error())
	}
	wd, err := os.Getwd()
	if err != nil {
		return sessions.Options{}, sessions.Errorf(sessions.CodeFailed, "the working directory cannot be read")
	}
	o := sessions.Options{URL: c.Args().First(), Headed: c.Bool("headed"), Browser: c.String("browser"), CDPURL: c.String("cdp-url"), Dir: wd}
	if o.URL != "" {
		u, err := url.Parse(o.URL)
		if err != nil || !u.IsAbs() || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil {
			return o, sessionUsageError("URL: expected an absolute http or https URL without credentials")
		}
	}
	o.AllowedOrigins = c.StringSlice("allowed-origin")
	for _, d := range c.StringSlice("allowed-domain") {
		entry, err := policy.DomainEntry(d) // "*.example.com", the policy's domain entry
		if err != nil {
			return o, sessionUsageError("--allowed-domain: " + err.Error())
		}
		o.AllowedOrigins = append(o.AllowedOrigins, entry)
	}
	if len(o.AllowedOrigins) == 0 {
		if o.URL == "" {
			return o, sessionUsageError("give a URL, or --allowed-origin (\"*\" for any origin) or --allowed-domain to open a blank session")
		}
		o.AllowedOrigins = []string{policy.OriginOf(o.URL)}
	}
	if _, err := policy.Parse(o.AllowedOrigins); err != nil {
		return o, sessionUsageError("--allowed-origin: " + err.Error())
	}
	idle := c.Duration("idle-timeout")
	if idle <= 0 {
		return o, sessions.Errorf(sessions.CodeInvalidInput, "--idle-timeout: expected a positive duration such as 30m")
	}
	if _, err := budgets.SessionIdle().Resolve(idle); err != nil || idle > budgets.SessionIdle().Ceiling {
		return o, sessions.Errorf(sessions.CodeInvalidInput, "--idle-timeout %s is over the ceiling of %s", idle, budgets.SessionIdle().Ceiling)
	}
	o.IdleTimeoutMs = idle.Milliseconds()
	if v := c.String("viewport"); v != "" {
		vp, err := transport.ParseViewport(v)
		if err != nil {
			return o, sessionUsageError("--viewport: " + err.Error())
		}
		o.Viewport = vp.String()
	}
	for _, p := range []struct {
		flag string
		dst  *string
	}{{"profile", &o.Profile}, {"artifacts", &o.Artifacts}} {
		if v := c.String(p.flag); v != "" {
			abs, err := filepath.Abs(v)
			if err != nil {
				return o, sessionUsageError("--" + p.flag + ": not a usable path")
			}
			*p.dst = abs
		}
	}
	if o.Profile != "" && o.CDPURL != "" {
		return o, sessionUsageError("--profile needs a browser fastbrowser launches; it does not go with --cdp-url")
	}
	if err := tlsFlagOptions(c, &o); err != nil {
		return o, sessionUsageError(err.Error())
	}
	m, err := modelFromFlags(c)
	if err != nil {
		return o, sessionUsageError(err.Error())
	}
	o.Model = m // the key's variable by name only: each do sends its value
	if v := c.String("proxy"); v != "" {
		u, err := url.Parse(v)
		if err != nil || u.Scheme != "http" || u.Host == "" {
			return o, sessionUsageError("--proxy: expected http://host:port (optionally with user:password@)")
		}
		o.Proxy = v // stripped of credentials before it is stored (startHost)
	}
	return o, nil
}

// startHost creates the session's directory and starts its host, detached in a session
// of its own so that it outlives this command and no terminal signal reaches it, and waits
// (bounded) for the one line it writes when it is ready or has failed. A host that fails
// leaves nothing: it stops what it started, and the directory is removed here.
func startHost(ctx context.Context, st *state, store *sessions.Store, o sessions.Options) (json.RawMessage, error) {
	proxy := o.Proxy
	o.Proxy = withoutCredentials(proxy)
	rec := sessions.Record{ID: store.NewID(), Created: time.Now().UTC(), State: sessions.StateStarting, Options: o}
	d, err := store.Create(rec)
	if err != nil {
		return nil, sessions.Errorf(sessions.CodeFailed, "the session directory could not be created: %s", err)
	}
	if n := len(d.SocketPath()); n > maxSocketPath {
		_ = d.Remove()
		return nil, sessions.Errorf(sessions.CodeInvalidInput, "the state directory %s is too deep for the session's socket (%d bytes; unix sockets take at most %d): set FASTBROWSER_STATE_DIR to a shorter path", store.Root(), n, maxSocketPath)
	}
	exe, err := os.Executable()
	if err != nil {
		_ = d.Remove()
		return nil, sessions.Errorf(sessions.CodeLaunchFailed, "this executable's path is unknown; the session host cannot be started")
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		_ = d.Remove()
		return nil, sessions.Errorf(sessions.CodeLaunchFailed, "the session host cannot be started: %s", err)
	}
	cmd := exec.Command(exe, "session", "host", rec.ID)
	cmd.Dir = o.Dir
	cmd.Stdout = pw
	// The host's environment is this one's with the state directory pinned, so it finds
	// the session however this command found it. The proxy URL, which may hold a password,
	// goes on its stdin: not on a command line, not in the state directory, and not in an
	// environment the browser inherits.
	// The model's key variable is left out: the host reads the key only from what each do
	// sends, so the browser it starts never inherits it.
	cmd.Env = append(withoutVar(os.Environ(), o.Model), "FASTBROWSER_STATE_DIR="+store.Root())
	secretIn, _ := json.Marshal(hostSecrets{Proxy: proxy})
	cmd.Stdin = bytes.NewReader(secretIn)
	if v, _ := st.lookup()("FASTBROWSER_DEBUG"); v != "" {
		// The host has no terminal: its debug log (Chromium's and the worker's stderr,
		// secrets masked) goes to the session's directory.
		if f, err := os.OpenFile(filepath.Join(d.Path, "host.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600); err == nil {
			defer f.Close()
			cmd.Stderr = f
		}
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		pw.Close()
		pr.Close()
		_ = d.Remove()
		return nil, sessions.Errorf(sessions.CodeLaunchFailed, "the session host could not be started: %s", err)
	}
	pw.Close()
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	line := make(chan []byte, 1)
	go func() {
		b, _ := bufio.NewReaderSize(pr, 1<<20).ReadBytes('\n')
		line <- b
	}()
	// fail stops a host that did not come up: TERM first, so that it stops its browser and
	// removes the temporary profile itself, KILL after the grace (its browser then dies by
	// Pdeathsig, and its profile is removed here once no browser holds it).
	fail := func(err error) (json.RawMessage, error) {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(budgets.ProcessStopGrace().Default):
			_ = cmd.Process.Kill()
			select {
			case <-exited:
			case <-time.After(budgets.ProcessStopGrace().Ceiling):
			}
		}
		if r, rerr := d.Record(); rerr == nil && r.TempProfile != "" {
			_, _ = chromium.RemoveStaleProfile(r.TempProfile)
		}
		_ = d.Remove()
		return nil, err
	}
	select {
	case b := <-line:
		pr.Close()
		var probe struct {
			Error *sessions.ErrorBody `json:"error"`
			ID    string              `json:"id"`
		}
		if len(b) == 0 || json.Unmarshal(b, &probe) != nil {
			return fail(sessions.Errorf(sessions.CodeLaunchFailed, "the session host ended before it was ready"))
		}
		if probe.Error != nil {
			<-waitOrTimeout(exited, budgets.ProcessStopGrace().Ceiling)
			_ = d.Remove()
			return b, nil
		}
		return b, nil
	case <-time.After(budgets.SessionOpenWait):
		pr.Close()
		return fail(sessions.Errorf(sessions.CodeLaunchFailed, "the session host was not ready within %s", budgets.SessionOpenWait))
	case <-ctx.Done():
		pr.Close()
		return fail(sessions.Errorf(sessions.CodeFailed, "interrupted while the session opened"))
	}
}

// maxSocketPath is the longest unix socket path Linux takes (sun_path is 108 bytes with
// its terminating NUL).
const maxSocketPath = 107

func waitOrTimeout(done <-chan struct{}, d time.Duration) <-chan struct{} {
	out := make(chan struct{})
	go func() {
		select {
		case <-done:
		case <-time.After(d):
		}
		close(out)
	}()
	return out
}

// withoutVar is env without the model's API key variable (env unchanged without one).
func withoutVar(env []string, m *model.Config) []string {
	if m == nil || m.APIKeyEnv == "" {
		return env
	}
	out := env[:0:0]
	for _, kv := range env {
		if !strings.HasPrefix(kv, m.APIKeyEnv+"=") {
			out = append(out, kv)
		}
	}
	return out
}

// withoutCredentials is a proxy URL fit to store: user and password removed.
func withoutCredentials(raw string) string {
	if raw == "" {
		return ""
	}
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	u.User = nil
	return strings.TrimSuffix(u.String(), "/")
}
