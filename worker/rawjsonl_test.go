package worker_test

import (
	"bufio"
	"encoding/json"
	"io"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
)

// rawWorker is `fastbrowser worker` driven the way a parent in another language would:
// bytes on stdin, lines on stdout.
type rawWorker struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	lines chan string
}

func startRawWorker(t *testing.T, extra ...string) *rawWorker {
	t.Helper()
	b, err := runtimetest.Browser()
	if err != nil {
		t.Fatal(err)
	}
	bin, _ := runtimetest.Binary()
	return startRawWorkerArgs(t, bin, append([]string{"worker", "--cdp-url", b.WebSocketURL()}, extra...)...)
}

// startRawWorkerArgs starts bin with args as a rawWorker, stopped when the test ends.
func startRawWorkerArgs(t *testing.T, bin string, args ...string) *rawWorker {
	t.Helper()
	cmd := exec.Command(bin, args...)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w := &rawWorker{cmd: cmd, stdin: stdin, lines: make(chan string, 64)}
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			w.lines <- sc.Text()
		}
		close(w.lines)
	}()
	t.Cleanup(func() {
		stdin.Close()
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-done
			t.Error("worker did not exit after stdin closed")
		}
	})
	return w
}

func (w *rawWorker) write(t *testing.T, s string) {
	t.Helper()
	if _, err := io.WriteString(w.stdin, s); err != nil {
		t.Fatalf("write to worker: %v", err)
	}
}

type frame struct {
	V      int             `json:"v"`
	ID     string          `json:"id"`
	Ready  json.RawMessage `json:"ready"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Operation, Phase, Code, Message, Retry, MutationState, Path string
	} `json:"error"`
	Posture string `json:"posture"`
}

func (w *rawWorker) next(t *testing.T) frame {
	t.Helper()
	select {
	case l, ok := <-w.lines:
		if !ok {
			t.Fatal("worker stdout closed")
		}
		var f frame
		if err := json.Unmarshal([]byte(l), &f); err != nil || f.V != 1 {
			t.Fatalf("not a protocol v1 frame: %q", l)
		}
		return f
	case <-time.After(15 * time.Second):
		t.Fatal("no frame from the worker within 15s")
	}
	return frame{}
}

// TestRawJSONL is acceptance 7: the documented error frames for a malformed line, an
// oversized line and an unknown op, and the worker keeps serving after each.
func TestRawJSONL(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	w := startRawWorker(t)
	ready := w.next(t)
	if !strings.Contains(string(ready.Ready), `"protocol":1`) || !strings.Contains(string(ready.Ready), "Chrome/") {
		t.Fatalf("ready frame %s", ready.Ready)
	}

	w.write(t, `{"v":1,"id":"bad",`+"\n")
	if f := w.next(t); f.Error == nil || f.Error.Code != "protocol_error" || f.ID != "" {
		t.Fatalf("malformed line: %+v", f)
	}

	big := `{"v":1,"id":"big","op":"navigate","request":{"url":"http://x/` + strings.Repeat("a", 17<<20) + `"}}` + "\n"
	w.write(t, big)
	if f := w.next(t); f.Error == nil || f.Error.Code != "protocol_error" || !strings.Contains(f.Error.Message, "longer than") {
		t.Fatalf("oversized line: %+v", f)
	}

	w.write(t, `{"v":1,"id":"u1","op":"evaluate","request":{"expression":"1"}}`+"\n")
	if f := w.next(t); f.ID != "u1" || f.Error == nil || f.Error.Code != "invalid_request" || f.Error.Path != "op" || f.Error.MutationState != "not_attempted" {
		t.Fatalf("unknown op: %+v", f)
	}

	w.write(t, `{"v":1,"id":"t1","op":"navigate","request":{"url":"`+site.URL+`/form","URL":"x"}}`+"\n")
	if f := w.next(t); f.ID != "t1" || f.Error == nil || f.Error.Code != "invalid_request" || f.Error.Path != "request" || !strings.Contains(f.Error.Message, "duplicate key") {
		t.Fatalf("case-variant key: %+v %+v", f, f.Error)
	}

	// Still alive: a real navigation and read work.
	w.write(t, `{"v":1,"id":"n1","op":"navigate","request":{"url":"`+site.URL+`/form"}}`+"\n")
	f := w.next(t)
	if f.ID != "n1" || f.Error != nil || !strings.Contains(string(f.Result), `"status":200`) || f.Posture != "ok" {
		t.Fatalf("navigate after bad lines: %+v %s", f, f.Result)
	}
	w.write(t, `{"v":1,"id":"r1","op":"read"}`+"\n")
	if f := w.next(t); f.ID != "r1" || !strings.Contains(string(f.Result), "Username") {
		t.Fatalf("read: %+v %s", f, f.Result)
	}

	w.write(t, `{"v":1,"id":"c1","op":"close"}`+"\n")
	if f := w.next(t); f.ID != "c1" || !strings.Contains(string(f.Result), `"closed":true`) {
		t.Fatalf("close: %+v", f)
	}
	if _, ok := <-w.lines; ok {
		t.Fatal("worker wrote after close")
	}
}

// TestWorkerEnforcesItsOwnPolicy checks the worker's own line of defence: with
// --allowed-origin it refuses other origins even when the caller skipped the runtime.
func TestWorkerEnforcesItsOwnPolicy(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	canary := runtimetest.NewCanary()
	defer canary.Close()
	w := startRawWorker(t, "--allowed-origin", site.URL)
	w.next(t) // ready
	w.write(t, `{"v":1,"id":"1","op":"navigate","request":{"url":"`+canary.URL+`/"}}`+"\n")
	f := w.next(t)
	if f.Error == nil || f.Error.Code != "origin_denied" || f.Error.MutationState != "not_attempted" || f.Error.Phase != "policy" {
		t.Fatalf("disallowed origin: %+v", f)
	}
	w.write(t, `{"v":1,"id":"2","op":"navigate","request":{"url":"`+site.URL+`/"},"context":{"origins":["`+canary.URL+`"]}}`+"\n")
	if f := w.next(t); f.Error == nil || f.Error.Code != "origin_denied" || f.Error.Path != "context.origins" {
		t.Fatalf("widening context: %+v", f)
	}
	if canary.Hits() != 0 {
		t.Fatalf("canary saw %d requests", canary.Hits())
	}
}

func TestNavigationFailureIsReported(t *testing.T) {
	w := startRawWorker(t)
	w.next(t)
	// A closed port: Chromium reports net::ERR_CONNECTION_REFUSED.
	w.write(t, `{"v":1,"id":"1","op":"navigate","request":{"url":"http://127.0.0.1:9/"}}`+"\n")
	f := w.next(t)
	if f.Error == nil || f.Error.Code != "navigation_failed" || !strings.Contains(f.Error.Message, "ERR_") || f.Error.MutationState != "unknown" {
		t.Fatalf("refused connection: %+v", f)
	}
}

// TestAwaitBrowser: a worker started with --await-browser (the runtime starts its own before
// the browser is up) takes the browser's endpoint from its first input line, then speaks
// protocol v1 on the rest of the same input; one whose input ends first exits with an error
// and never reports ready.
func TestAwaitBrowser(t *testing.T) {
	b, err := runtimetest.Browser()
	if err != nil {
		t.Fatal(err)
	}
	bin, _ := runtimetest.Binary()
	w := startRawWorkerArgs(t, bin, "worker", "--await-browser")
	w.write(t, `{"cdpUrl":"`+b.WebSocketURL()+`"}`+"\n"+`{"v":1,"id":"l1","op":"listTabs"}`+"\n")
	if f := w.next(t); !strings.Contains(string(f.Ready), "Chrome/") {
		t.Fatalf("ready frame %+v", f)
	}
	if f := w.next(t); f.ID != "l1" || !strings.Contains(string(f.Result), "about:blank") {
		t.Fatalf("listTabs after the endpoint line: %+v %s", f, f.Result)
	}

	cmd := exec.Command(bin, "worker", "--await-browser")
	cmd.Stdin = strings.NewReader("")
	out, err := cmd.Output()
	if err == nil || len(out) != 0 {
		t.Fatalf("input ended before the endpoint: err %v, stdout %q", err, out)
	}
}
