package transport

import (
	"context"
	"errors"
	"io"
	"os"
	"strconv"
	"testing"

	"github.com/fastbrowser/fastbrowser/transport/jsonl"
	"github.com/fastbrowser/fastbrowser/transport/strictjson"
)

// fakeWorkerEnv makes the test binary a fake worker for the Client's codec tests.
const fakeWorkerEnv = "FASTBROWSER_TEST_FAKE_WORKER"

func TestMain(m *testing.M) {
	if os.Getenv(fakeWorkerEnv) == "1" {
		os.Exit(fakeWorker(os.Stdin, os.Stdout))
	}
	os.Exit(m.Run())
}

// fakeWorker speaks protocol v1 without a browser: it answers listTabs with one tab whose
// title is the request frame's timeoutMs ("0" when absent), so a test can see what the
// Client put on the wire, and close by exiting.
func fakeWorker(in io.Reader, out io.Writer) int {
	w := jsonl.NewWriter(out, jsonl.DefaultMaxLine)
	if w.WriteFrame(readyFrame{V: Version, Ready: ReadyInfo{Protocol: Version, Browser: "Fake/1"}}) != nil {
		return 1
	}
	r := jsonl.NewReader(in, jsonl.DefaultMaxLine)
	for {
		line, err := r.ReadLine()
		if errors.Is(err, io.EOF) {
			return 0
		}
		var rf requestFrame
		if err != nil || strictjson.Decode(line, &rf) != nil {
			return 1
		}
		var res any = &CloseResult{Closed: true}
		if rf.Op == OpListTabs {
			res = &ListTabsResult{Tabs: []TabInfo{{Tab: "T", Title: strconv.FormatInt(rf.TimeoutMs, 10)}}, Selected: "T"}
		}
		raw, _ := marshalCompact(res)
		if w.WriteFrame(responseFrame{V: Version, ID: rf.ID, Result: raw, Posture: PostureOK}) != nil || rf.Op == OpClose {
			return 0
		}
	}
}

func startFakeWorker(t *testing.T) *Client {
	t.Helper()
	c, err := StartClient(context.Background(), ClientOptions{WorkerPath: os.Args[0], Env: append(os.Environ(), fakeWorkerEnv+"=1")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}
