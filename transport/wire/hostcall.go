package wire

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/strictjson"
)

// Host calls: protocol v1 frames for a host whose operations are its own, not the
// operation table's (the session host: do, describe, export, close). One connection carries
// one call: the host writes its ready frame, the client one request frame, the host one
// response or error frame. The frames are the ones Serve and Conn use; only the op names
// and request bodies belong to the host.

// HostHandler answers one host call. request is the frame's raw "request" object ({} when
// absent); the result is encoded as the response's "result".
type HostHandler func(ctx context.Context, op string, request json.RawMessage) (any, error)

// ServeHostCall answers the one call on rw: ready frame out, one request frame in (read
// within readIn), one response or error frame out. A malformed frame is answered with
// invalid_request; the handler is never called for it.
func ServeHostCall(ctx context.Context, rw io.ReadWriter, ready transport.ReadyInfo, readIn time.Duration, h HostHandler) error {
	f := newFrameConn(rw, rw)
	if err := f.sendReady(ready); err != nil {
		return err
	}
	type read struct {
		line []byte
		err  error
	}
	got := make(chan read, 1)
	go func() {
		line, err := f.readLine()
		got <- read{line, err}
	}()
	var in read
	timer := time.NewTimer(readIn)
	defer timer.Stop()
	select {
	case in = <-got:
	case <-timer.C:
		return fmt.Errorf("no request within %s", readIn)
	case <-ctx.Done():
		return ctx.Err()
	}
	if in.err != nil {
		return in.err
	}
	var rf transport.RequestFrame
	if err := strictjson.Decode(in.line, &rf); err != nil {
		return f.sendFailure("", "", frameError("", err))
	}
	raw := rf.Request
	if len(raw) == 0 || string(raw) == "null" {
		raw = []byte("{}")
	}
	res, err := callHandler(ctx, h, rf.Op, raw)
	if err != nil {
		// Host calls carry no failure evidence: the bare error, as they always have.
		return f.sendFailure(rf.ID, rf.Op, transport.AsOperationError(rf.Op, err))
	}
	enc, err := marshalCompact(res)
	if err != nil {
		oe := transport.NewError(rf.Op, transport.PhaseExecute, transport.CodeInternal, transport.RetryNever, transport.Unknown, "result could not be encoded")
		return f.sendFailure(rf.ID, rf.Op, oe)
	}
	return f.send(transport.ResponseFrame{V: transport.Version, ID: rf.ID, Result: enc, Posture: transport.PostureOK})
}

func callHandler(ctx context.Context, h HostHandler, op string, raw json.RawMessage) (res any, err error) {
	defer func() {
		if p := recover(); p != nil {
			res, err = nil, transport.NewError(op, transport.PhaseExecute, transport.CodeInternal, transport.RetryUnsafe, transport.Unknown, "the host failed while answering").WithCause(fmt.Errorf("panic: %v", p))
		}
	}()
	return h(ctx, op, raw)
}

// HostCall makes one call on rw (a fresh connection to a host): it waits for the ready
// frame, sends op with request, and decodes the result into result. The host's error comes
// back as an *OperationError. ctx bounds the whole call; the caller closes rw.
func HostCall(ctx context.Context, rw io.ReadWriter, op string, request, result any) (transport.ReadyInfo, error) {
	type outcome struct {
		ready transport.ReadyInfo
		err   error
	}
	done := make(chan outcome, 1)
	go func() {
		ready, err := hostCall(rw, op, request, result)
		done <- outcome{ready, err}
	}()
	select {
	case o := <-done:
		return o.ready, o.err
	case <-ctx.Done():
		return transport.ReadyInfo{}, ctx.Err()
	}
}

func hostCall(rw io.ReadWriter, op string, request, result any) (transport.ReadyInfo, error) {
	f := newFrameConn(rw, rw)
	ready, err := f.readReady()
	switch {
	case errors.Is(err, errNotReady):
		return transport.ReadyInfo{}, errors.New("the host's first line is not a protocol v1 ready frame")
	case err != nil:
		return transport.ReadyInfo{}, fmt.Errorf("the host sent no ready frame: %w", err)
	}
	body, err := marshalCompact(request)
	if err != nil {
		return ready, err
	}
	if err := f.send(transport.RequestFrame{V: transport.Version, ID: "1", Op: op, Request: body}); err != nil {
		return ready, err
	}
	line, err := f.readLine()
	if err != nil {
		return ready, fmt.Errorf("the host ended before it answered: %w", err)
	}
	var resp transport.ResponseFrame
	if err := json.Unmarshal(line, &resp); err != nil || resp.V != transport.Version {
		return ready, errors.New("the host's answer is not a protocol v1 frame")
	}
	if resp.Error != nil {
		return ready, resp.Error
	}
	if result != nil {
		if err := json.Unmarshal(resp.Result, result); err != nil {
			return ready, fmt.Errorf("the host's result does not decode: %w", err)
		}
	}
	return ready, nil
}
