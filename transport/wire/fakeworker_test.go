package wire

import (
	"context"
	"errors"
	"io"
	"strconv"
	"testing"

	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/jsonl"
	"github.com/fastbrowser/fastbrowser/transport/strictjson"
)

// fakeWorker speaks protocol v1 without a browser: it answers listTabs with one tab whose
// title is the request frame's timeoutMs ("0" when absent), so a test can see what the
// Conn put on the wire, and close by returning.
func fakeWorker(in io.Reader, out io.Writer) {
	w := jsonl.NewWriter(out, jsonl.DefaultMaxLine)
	if w.WriteFrame(transport.ReadyFrame{V: transport.Version, Ready: transport.ReadyInfo{Protocol: transport.Version, Browser: "Fake/1"}}) != nil {
		return
	}
	r := jsonl.NewReader(in, jsonl.DefaultMaxLine)
	for {
		line, err := r.ReadLine()
		if errors.Is(err, io.EOF) {
			return
		}
		var rf transport.RequestFrame
		if err != nil || strictjson.Decode(line, &rf) != nil {
			return
		}
		var res any = &transport.CloseResult{Closed: true}
		if rf.Op == transport.OpListTabs {
			res = &transport.ListTabsResult{Tabs: []transport.TabInfo{{Tab: "T", Title: strconv.FormatInt(rf.TimeoutMs, 10)}}, Selected: "T"}
		}
		raw, _ := marshalCompact(res)
		if w.WriteFrame(transport.ResponseFrame{V: transport.Version, ID: rf.ID, Result: raw, Posture: transport.PostureOK}) != nil || rf.Op == transport.OpClose {
			return
		}
	}
}

// startFakeWorker runs fakeWorker on a goroutine and connects to it over two io.Pipes.
func startFakeWorker(t *testing.T) *Conn {
	t.Helper()
	inR, inW := io.Pipe()   // the Conn's frames to the worker
	outR, outW := io.Pipe() // the worker's frames to the Conn
	done := make(chan struct{})
	go func() {
		defer close(done)
		fakeWorker(inR, outW)
		// A worker that returned reads and writes nothing more, as a process that exited.
		_ = inR.Close()
		_ = outW.Close()
	}()
	c, err := NewConn(context.Background(), outR, inW, ConnOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = c.Close()
		<-done
	})
	return c
}
