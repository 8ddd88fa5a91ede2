package main

import (
	"bufio"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/runtime/process/proctest"
	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
)

// TestServeAnswersDeepLine drives the real `fastbrowser serve` binary as a parent would: a
// 16 MB line of 8·10^6 nested arrays (inside the 16 MiB line limit) once killed it with
// Go's uncatchable stack overflow. It must be answered with the nesting limit named, and
// the session must go on: the next close is answered and serve exits 0.
func TestServeAnswersDeepLine(t *testing.T) {
	b, err := runtimetest.Browser()
	if err != nil {
		t.Fatal(err)
	}
	bin, _ := runtimetest.Binary()
	cmd := exec.Command(bin, "serve", "--cdp-url", b.WebSocketURL())
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	lines := make(chan string, 8)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
		exited <- cmd.Wait()
	}()
	defer func() {
		_ = cmd.Process.Kill() // a no-op once serve has exited, as it must
		<-exited
	}()
	next := func() map[string]any {
		t.Helper()
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatal("serve ended its output")
			}
			var f map[string]any
			if err := json.Unmarshal([]byte(l), &f); err != nil {
				t.Fatalf("not a frame: %.200q", l)
			}
			return f
		case <-time.After(60 * time.Second):
			t.Fatal("no frame from serve within 60s")
		}
		return nil
	}
	if f := next(); f["ready"] == nil {
		t.Fatalf("first frame %v", f)
	}
	const levels = 8_000_000
	line := `{"v":1,"id":"d","op":"read","request":` + strings.Repeat("[", levels) + strings.Repeat("]", levels) + "}\n"
	if len(line) > budgets.FrameBytes {
		t.Fatalf("line of %d bytes is over the limit", len(line))
	}
	if _, err := stdin.Write([]byte(line)); err != nil {
		t.Fatalf("serve stopped reading: %v", err)
	}
	f := next()
	e, _ := f["error"].(map[string]any)
	if e == nil || e["code"] != "protocol_error" || !strings.Contains(e["message"].(string), strconv.Itoa(budgets.JSONNesting)+" levels") {
		t.Fatalf("deep line answered %v", f)
	}
	// Memory stays bounded: the line itself (16 MB) and buffers, nothing per level.
	if hwm := proctest.PeakRSS(t, cmd.Process.Pid); hwm > 128<<20 {
		t.Fatalf("serve peak RSS %d KiB after the deep line, over 128 MiB", hwm>>10)
	} else {
		t.Logf("serve peak RSS after the deep line: %d KiB", hwm>>10)
	}
	if _, err := stdin.Write([]byte(`{"v":1,"id":"c","op":"close"}` + "\n")); err != nil {
		t.Fatal(err)
	}
	if f := next(); f["id"] != "c" || f["result"] == nil {
		t.Fatalf("close after the deep line: %v", f)
	}
	select {
	case err := <-exited:
		if err != nil {
			t.Fatalf("serve exited with %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not exit after close")
	}
	exited <- nil // for the deferred wait
}

// TestValidateRefusesDeepScenario: `fastbrowser validate` refuses a scenario file nested
// past the limit (exit 2), naming the file, the JSON path and the limit.
func TestValidateRefusesDeepScenario(t *testing.T) {
	n := 400_000 // inside the 1 MiB file limit
	f := writeScenario(t, t.TempDir(), "deep.json", `{"version":1,"id":"deep","operations":[{"op":"read","request":`+
		strings.Repeat("[", n)+strings.Repeat("]", n)+`}]}`)
	res := runCLI(t, nil, "validate", f)
	if res.code != 2 || !strings.Contains(res.stderr, filepath.Base(f)+": operations[0].request[0]") ||
		!strings.Contains(res.stderr, "more than 512 levels") || !strings.Contains(res.stderr, "(invalid_request)") {
		t.Fatalf("exit %d\nstdout %s\nstderr %.300s", res.code, res.stdout, res.stderr)
	}
}
