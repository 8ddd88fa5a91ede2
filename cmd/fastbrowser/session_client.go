package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net"
	"time"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/scenario/sessions"
	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/wire"
)

// sessionStore opens the state directory ($FASTBROWSER_STATE_DIR, else
// $XDG_STATE_HOME/fastbrowser, else ~/.local/state/fastbrowser) and sweeps what killed
// hosts left.
func sessionStore(st *state) (*sessions.Store, error) {
	root, err := sessions.Root(st.lookup())
	if err != nil {
		return nil, sessions.Errorf(sessions.CodeFailed, "the session state directory cannot be used: %s", err)
	}
	store, err := sessions.OpenStore(root)
	if err != nil {
		return nil, sessions.Errorf(sessions.CodeFailed, "the session state directory cannot be used: %s", err)
	}
	store.Sweep(time.Now())
	return store, nil
}

// openSession finds a session and its record, after the sweep.
func openSession(st *state, id string) (*sessions.Store, *sessions.Dir, sessions.Record, error) {
	store, err := sessionStore(st)
	if err != nil {
		return nil, nil, sessions.Record{}, err
	}
	d, err := store.Open(id)
	if err != nil {
		return nil, nil, sessions.Record{}, err
	}
	rec, err := d.Record()
	if err != nil {
		return nil, nil, sessions.Record{}, sessions.Errorf(sessions.CodeNotFound, "session %s has no readable record", id)
	}
	return store, d, rec, nil
}

// endedError is session_ended for an ended session, saying why.
func endedError(rec sessions.Record) error {
	return sessions.Errorf(sessions.CodeEnded, "session %s has ended (%s); export and list still work", rec.ID, rec.Reason)
}

// callHost makes one call to an open session's host and returns what the command prints
// (the host answers with the result or the {"error"} object). A host that is gone is found
// out here: the sweep then records why, and the command gets session_ended.
func callHost(ctx context.Context, st *state, d *sessions.Dir, rec sessions.Record, op string, req any) (json.RawMessage, error) {
	switch rec.State {
	case sessions.StateStarting:
		return nil, sessions.Errorf(sessions.CodeBusy, "session %s is still starting; try again once `session open` has answered", rec.ID)
	case sessions.StateOpen:
	default:
		return nil, endedError(rec)
	}
	dialer := net.Dialer{Timeout: budgets.SessionConnect}
	conn, err := dialer.DialContext(ctx, "unix", d.SocketPath())
	if err != nil {
		return nil, hostGone(st, d, rec)
	}
	defer conn.Close()
	ctx, cancel := context.WithTimeout(ctx, budgets.SessionCall)
	defer cancel()
	var out json.RawMessage
	_, err = wire.HostCall(ctx, conn, op, req, &out)
	var oe *transport.OperationError
	switch {
	case errors.As(err, &oe):
		return nil, sessions.Errorf(sessions.CodeFailed, "the session host refused the call: %s", oe.Message)
	case errors.Is(err, context.DeadlineExceeded):
		return nil, sessions.Errorf(sessions.CodeFailed, "the session host did not answer within %s", budgets.SessionCall)
	case errors.Is(err, context.Canceled):
		return nil, sessions.Errorf(sessions.CodeFailed, "interrupted while the session host was answering")
	case err != nil:
		return nil, hostGone(st, d, rec)
	}
	return out, nil
}

// hostGone: the socket did not answer. If the host died the sweep marks the session
// ended; otherwise the host is ending right now.
func hostGone(st *state, d *sessions.Dir, rec sessions.Record) error {
	if _, err := sessionStore(st); err == nil {
		if r, err := d.Record(); err == nil && r.State != sessions.StateOpen {
			return endedError(r)
		}
	}
	return sessions.Errorf(sessions.CodeEnded, "session %s's host is not answering; it is ending", rec.ID)
}

// printHostOutput prints what the host answered; an {"error"} object or a failed
// operation's result exits 1.
func printHostOutput(st *state, out json.RawMessage) error {
	var probe struct {
		Error json.RawMessage `json:"error"`
	}
	_, _ = st.stdout.Write(append(bytes.TrimSpace(out), '\n'))
	if json.Unmarshal(out, &probe) == nil && len(probe.Error) > 0 && string(probe.Error) != "null" {
		return &exitError{code: exitFailed}
	}
	return nil
}
