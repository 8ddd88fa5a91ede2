package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"testing"
	"time"

	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
)

// BenchmarkSessionDoRead is issue 12's acceptance 8: what a `session do` costs over the
// protocol. Each iteration times one read both ways on the same fixture page, alternating so
// machine noise hits both alike:
//   - do: one `fastbrowser session do ID` process with {"op":"read"} on stdin, from process
//     start to exit (the client's start, its connection to the host, the read, the history
//     write, the page after it);
//   - serve: one {"op":"read"} request line written to a `fastbrowser serve` kept open, to
//     its response line.
//
// It reports both medians and their ratio (do-ms, serve-ms, do/serve).
//
//	go test -run '^$' -bench BenchmarkSessionDoRead -benchtime 30x ./cmd/fastbrowser/
func BenchmarkSessionDoRead(b *testing.B) {
	site := runtimetest.Fixture()
	defer site.Close()
	s := newSessionCLI(b)
	id, _ := s.open(site.URL + "/form")
	srv := startServe(b, site.URL)
	defer srv.close()
	srv.call(b, `{"v":1,"id":"nav","op":"navigate","request":{"url":"`+site.URL+`/form"}}`)

	var do, serve []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		cmd := s.command(sessionCmdOpts{stdin: `{"op":"read"}`}, "session", "do", id)
		start := time.Now()
		out, err := cmd.Output()
		do = append(do, time.Since(start))
		if err != nil {
			b.Fatalf("session do read: %v\n%s", err, out)
		}
		start = time.Now()
		srv.call(b, fmt.Sprintf(`{"v":1,"id":"r%d","op":"read"}`, i))
		serve = append(serve, time.Since(start))
	}
	b.StopTimer()
	md, ms := median(do), median(serve)
	b.ReportMetric(float64(md)/1e6, "do-ms")
	b.ReportMetric(float64(ms)/1e6, "serve-ms")
	b.ReportMetric(float64(md)/float64(ms), "do/serve")
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

// serveProc is a `fastbrowser serve` kept open: one request line in, one response line out.
type serveProc struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	out   *bufio.Reader
}

func startServe(b *testing.B, origin string) *serveProc {
	b.Helper()
	bin, _ := runtimetest.Binary()
	cmd := exec.Command(bin, "serve", "--allowed-origin", origin)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	p := &serveProc{cmd: cmd, stdin: stdin, out: bufio.NewReader(stdout)}
	if _, err := p.out.ReadBytes('\n'); err != nil { // the ready frame
		p.close()
		b.Fatalf("serve: no ready frame: %v", err)
	}
	return p
}

// call writes one request line and reads its response, which must be a result.
func (p *serveProc) call(b *testing.B, req string) {
	b.Helper()
	if _, err := io.WriteString(p.stdin, req+"\n"); err != nil {
		b.Fatal(err)
	}
	line, err := p.out.ReadBytes('\n')
	if err != nil {
		b.Fatal(err)
	}
	var f struct {
		Result json.RawMessage `json:"result"`
	}
	if json.Unmarshal(line, &f) != nil || f.Result == nil {
		b.Fatalf("serve answered %s", line)
	}
}

// close ends serve by closing its stdin and reaps it.
func (p *serveProc) close() {
	_ = p.stdin.Close()
	_ = p.cmd.Wait()
}
