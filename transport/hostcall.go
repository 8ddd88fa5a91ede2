package transport

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/fastbrowser/fastbrowser/transport/jsonl"
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
func ServeHostCall(ctx context.Context, rw io.ReadWriter, ready ReadyInfo, readIn time.Duration, h HostHandler) error {
	w := jsonl.NewWriter(rw, jsonl.DefaultMaxLine)
	ready.Protocol = Version
	if err := w.WriteFrame(readyFrame{V: Version, Ready: ready}); err != nil {
		return err
	}
	type read struct {
		line []byte
		err  error
	}
	got := make(chan read, 1)
	go func() {
		line, err := jsonl.NewReader(rw, jsonl.DefaultMaxLine).ReadLine()
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
	var rf requestFrame
	if err := strictjson.Decode(in.line, &rf); err != nil {
		return w.WriteFrame(errorFrame{V: Version, Error: wireError{OperationError: frameError("", err)}, Posture: PostureFailed})
	}
	raw := rf.Request
	if len(raw) == 0 || string(raw) == "null" {
		raw = []byte("{}")
	}
	res, err := callHandler(ctx, h, rf.Op, raw)
	if err != nil {
		oe := AsOperationError(rf.Op, err)
		return w.WriteFrame(errorFrame{V: Version, ID: rf.ID, Error: wireError{OperationError: oe}, Posture: PostureOf(oe)})
	}
	enc, err := marshalCompact(res)
	if err != nil {
		oe := NewError(rf.Op, PhaseExecute, CodeInternal, RetryNever, Unknown, "result could not be encoded")
		return w.WriteFrame(errorFrame{V: Version, ID: rf.ID, Error: wireError{OperationError: oe}, Posture: PostureFailed})
	}
	return w.WriteFrame(responseFrame{V: Version, ID: rf.ID, Result: enc, Posture: PostureOK})
}

func callHandler(ctx context.Context, h HostHandler, op string, raw json.RawMessage) (res any, err error) {
	defer func() {
		if p := recover(); p != nil {
			res, err = nil, NewError(op, PhaseExecute, CodeInternal, RetryUnsafe, Unknown, "the host failed while answering").WithCause(fmt.Errorf("panic: %v", p))
		}
	}()
	return h(ctx, op, raw)
}

// HostCall makes one call on rw (a fresh connection to a host): it waits for the ready
// frame, sends op with request, and decodes the result into result. The host's error comes
// back as an *OperationError. ctx bounds the whole call; the caller closes rw.
func HostCall(ctx context.Context, rw io.ReadWriter, op string, request, result any) (ReadyInfo, error) {
	type outcome struct {
		ready ReadyInfo
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
		return ReadyInfo{}, ctx.Err()
	}
}

func hostCall(rw io.ReadWriter, op string, request, result any) (ReadyInfo, error) {
	r := jsonl.NewReader(rw, jsonl.DefaultMaxLine)
	line, err := r.ReadLine()
	if err != nil {
		return ReadyInfo{}, fmt.Errorf("the host sent no ready frame: %w", err)
	}
	var rf readyFrame
	if err := strictjson.Decode(line, &rf); err != nil || rf.V != Version || rf.Ready.Protocol != Version {
		return ReadyInfo{}, errors.New("the host's first line is not a protocol v1 ready frame")
	}
	body, err := marshalCompact(request)
	if err != nil {
		return rf.Ready, err
	}
	w := jsonl.NewWriter(rw, jsonl.DefaultMaxLine)
	if err := w.WriteFrame(requestFrame{V: Version, ID: "1", Op: op, Request: body}); err != nil {
		return rf.Ready, err
	}
	line, err = r.ReadLine()
	if err != nil {
		return rf.Ready, fmt.Errorf("the host ended before it answered: %w", err)
	}
	var resp responseFrame
	if err := json.Unmarshal(line, &resp); err != nil || resp.V != Version {
		return rf.Ready, errors.New("the host's answer is not a protocol v1 frame")
	}
	if resp.Error != nil {
		return rf.Ready, resp.Error
	}
	if result != nil {
		if err := json.Unmarshal(resp.Result, result); err != nil {
			return rf.Ready, fmt.Errorf("the host's result does not decode: %w", err)
		}
	}
	return rf.Ready, nil
}
