package main

import (
	"encoding/json"
	"io"
	"path/filepath"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/fastbrowser/fastbrowser/artifacts"
	"github.com/fastbrowser/fastbrowser/runtime"
	"github.com/fastbrowser/fastbrowser/scenario/sessions"
	"github.com/fastbrowser/fastbrowser/transport"
)

// hostSecrets is what `session open` hands its host on stdin, never on the command line or
// in the state directory.
type hostSecrets struct {
	Proxy string `json:"proxy,omitempty"`
}

// sessionHostCommand is the session host process `session open` starts (hidden): it reads
// the session's options from its record, serves the session's socket, and exits when the
// session ends. Its stdout is `open`'s pipe: one line, the open result or the error.
func sessionHostCommand(st *state) *cli.Command {
	return &cli.Command{
		Name:      "host",
		Hidden:    true,
		Usage:     "the session host process (started by session open)",
		UsageText: "fastbrowser session host ID",
		Action: func(c *cli.Context) error {
			id, err := sessionID(c)
			if err != nil {
				return sessionFailure(st, err)
			}
			var sec hostSecrets
			_ = json.NewDecoder(io.LimitReader(st.stdin, 64<<10)).Decode(&sec)
			// No sweep here: this host has not taken its lock yet, and a sweep would find its
			// own session without a live host.
			d, rec, err := hostSession(st, id)
			if err != nil {
				return sessionFailure(st, err)
			}
			ready := readyWriter(st)
			opts, root, closeStore, err := hostRuntimeOptions(st, d, rec.Options, sec)
			if err != nil {
				printJSON(st, sessions.ErrorOutput{Error: sessions.AsError(err)})
				_ = ready.Close()
				return &exitError{code: exitFailed}
			}
			defer closeStore()
			if err := sessions.RunHost(c.Context, sessions.HostConfig{Dir: d, Runtime: opts, Ready: ready, ArtifactRoot: root}); err != nil {
				return &exitError{code: exitFailed}
			}
			return nil
		},
	}
}

func hostSession(st *state, id string) (*sessions.Dir, sessions.Record, error) {
	root, err := sessions.Root(st.lookup())
	if err != nil {
		return nil, sessions.Record{}, err
	}
	store, err := sessions.OpenStore(root)
	if err != nil {
		return nil, sessions.Record{}, err
	}
	d, err := store.Open(id)
	if err != nil {
		return nil, sessions.Record{}, err
	}
	rec, err := d.Record()
	return d, rec, err
}

// readyWriter is the host's stdout, which open reads one line from.
func readyWriter(st *state) io.WriteCloser {
	if wc, ok := st.stdout.(io.WriteCloser); ok {
		return wc
	}
	return nopWriteCloser{st.stdout}
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

// hostRuntimeOptions builds the session runtime's options from what open recorded; the
// artifact store is --artifacts or the session's own directory.
func hostRuntimeOptions(st *state, d *sessions.Dir, o sessions.Options, sec hostSecrets) (runtime.Options, string, func(), error) {
	opts := runtime.Options{Executable: o.Browser, Headed: o.Headed, CDPURL: o.CDPURL, AllowedOrigins: o.AllowedOrigins,
		WorkerPath: st.workerPath, WorkerArgs: workerArgs(st), OwnWorker: true, Log: debugLog(st)}
	if o.Viewport != "" {
		vp, err := transport.ParseViewport(o.Viewport)
		if err != nil {
			return opts, "", nil, sessions.Errorf(sessions.CodeInvalidInput, "viewport: %s", err)
		}
		opts.Viewport = vp
	}
	opts.Profile, opts.UpstreamProxy = o.Profile, sec.Proxy
	trust, err := sessionTLSTrust(o)
	if err != nil {
		return opts, "", nil, err
	}
	opts.TLS = trust
	// The adapter reads the key through the host's per-do env lookup (RunHost sets it):
	// from what the running do sent, never from the host's own environment.
	opts.Model = o.Model
	root := o.Artifacts
	if root == "" {
		root = filepath.Join(d.Path, "artifacts")
	}
	store, err := artifacts.Open(root, "session-"+d.ID)
	if err != nil {
		return opts, "", nil, sessions.Errorf(sessions.CodeInvalidInput, "%s", dirRefused("--artifacts", root, "fastbrowser-artifacts", err).Error())
	}
	opts.Evidence = &runtime.EvidenceOptions{Store: store, RunID: time.Now().UTC().Format("20060102T150405Z"), Owner: "session-" + d.ID}
	return opts, store.Root(), func() { store.Close() }, nil
}
