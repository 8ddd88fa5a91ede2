// Command brokenworker is a deliberately broken worker for the conformance suite's tests:
// it runs a real worker and rewrites its answers, so the suite can be shown to fail naming
// the right check. Usage: brokenworker MODE WORKER ARGS... (the runtime appends its flags).
//
//	leak-receipt       puts the text typed by each act into its receipt's name
//	ignore-denial      answers a navigate refused by the origin policy as if it had succeeded
//	misclassify-login  reports a login page's class as normal (no handoff is ever seen)
//	ignore-budgets     drops observe's maxNodes, maxDepth and maxTextChars before the worker sees them
//	reload-each-read   reloads the page before every observe (a worker that keeps no page
//	                   state between calls: each batch sees a new document)
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"

	"github.com/fastbrowser/fastbrowser/budgets"
)

func main() {
	if len(os.Args) < 3 || !modes[os.Args[1]] {
		fmt.Fprintln(os.Stderr, "usage: brokenworker leak-receipt|ignore-denial|misclassify-login|ignore-budgets|reload-each-read WORKER ARGS...")
		os.Exit(2)
	}
	mode := os.Args[1]
	cmd := exec.Command(os.Args[2], os.Args[3:]...)
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		fail(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		fail(err)
	}
	if err := cmd.Start(); err != nil {
		fail(err)
	}
	p := &proxy{mode: mode, requests: map[string]request{}, reloaded: make(chan struct{}, 1)}
	go func() {
		p.forward(os.Stdin, in)
		in.Close()
	}()
	p.rewrite(out, os.Stdout)
	_ = cmd.Wait()
}

var modes = map[string]bool{"leak-receipt": true, "ignore-denial": true, "misclassify-login": true, "ignore-budgets": true, "reload-each-read": true}

// reloadID is the id of the reload the proxy itself sends; its answer is not passed on.
const reloadID = "brokenworker-reload"

func fail(err error) {
	fmt.Fprintln(os.Stderr, "brokenworker:", err)
	os.Exit(1)
}

// request is what the proxy remembers of a request frame, by id.
type request struct {
	Op      string `json:"op"`
	ID      string `json:"id"`
	Request struct {
		Text string `json:"text"` // act type: the resolved text the runtime sent
		URL  string `json:"url"`
	} `json:"request"`
}

type proxy struct {
	mode     string
	mu       sync.Mutex
	requests map[string]request
	lastTab  string        // the tab of the latest result, for a forged navigate answer
	reloaded chan struct{} // reload-each-read: the worker answered the proxy's reload
}

// forward copies request frames to the worker, remembering each.
func (p *proxy) forward(r io.Reader, w io.Writer) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var q request
		line := sc.Bytes()
		if json.Unmarshal(line, &q) == nil && q.ID != "" {
			p.mu.Lock()
			p.requests[q.ID] = q
			p.mu.Unlock()
			if p.mode == "ignore-budgets" && q.Op == "observe" {
				line = withoutBudgets(line)
			}
			if p.mode == "reload-each-read" && q.Op == "observe" {
				if !p.reload(line, w) {
					return
				}
			}
		}
		if _, err := w.Write(append(line, '\n')); err != nil {
			return
		}
	}
}

// reload sends the worker a reload of the tab observe reads (with the same context), and
// waits for its answer before the observe goes on. False when the worker is gone.
func (p *proxy) reload(observe []byte, w io.Writer) bool {
	var frame map[string]any
	if json.Unmarshal(observe, &frame) != nil {
		return true
	}
	req := map[string]any{}
	if r, ok := frame["request"].(map[string]any); ok && r["tab"] != nil {
		req["tab"] = r["tab"]
	}
	frame["id"], frame["op"], frame["request"] = reloadID, "reload", req
	b, err := json.Marshal(frame)
	if err != nil {
		return true
	}
	if _, err := w.Write(append(b, '\n')); err != nil {
		return false
	}
	select {
	case <-p.reloaded:
		return true
	case <-time.After(budgets.Navigation().Ceiling + budgets.ClientMargin): // the reload's own bound, and the margin a client gives it
		return false
	}
}

// rewrite copies the worker's frames back, breaking the ones its mode breaks.
func (p *proxy) rewrite(r io.Reader, w io.Writer) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		line := sc.Bytes()
		var frame map[string]any
		if json.Unmarshal(line, &frame) == nil {
			if frame["id"] == reloadID {
				p.reloaded <- struct{}{}
				continue
			}
			if b, ok := p.broken(frame); ok {
				line = b
			}
		}
		if _, err := w.Write(append(line, '\n')); err != nil {
			return
		}
	}
}

func (p *proxy) broken(frame map[string]any) ([]byte, bool) {
	id, _ := frame["id"].(string)
	p.mu.Lock()
	q := p.requests[id]
	p.mu.Unlock()
	res, _ := frame["result"].(map[string]any)
	if tab, ok := res["tab"].(string); ok {
		p.lastTab = tab
	}
	switch {
	case p.mode == "leak-receipt" && q.Op == "act" && q.Request.Text != "" && res != nil:
		receipt, _ := res["receipt"].(map[string]any)
		if receipt == nil {
			return nil, false
		}
		receipt["name"] = q.Request.Text
	case p.mode == "ignore-denial" && q.Op == "navigate" && frame["error"] != nil:
		e, _ := frame["error"].(map[string]any)
		if code := e["code"]; code != "egress_denied" && code != "origin_denied" {
			return nil, false
		}
		delete(frame, "error")
		delete(frame, "posture")
		frame["result"] = map[string]any{"tab": p.lastTab, "url": q.Request.URL, "title": "", "status": 200, "documentId": "forged"}
	case p.mode == "misclassify-login" && q.Op == "observe" && res != nil && res["pageClass"] == "login":
		res["pageClass"] = "normal"
	default:
		return nil, false
	}
	b, err := json.Marshal(frame)
	return b, err == nil
}

// withoutBudgets is an observe request frame with its page_text budgets removed.
func withoutBudgets(line []byte) []byte {
	var frame map[string]any
	if json.Unmarshal(line, &frame) != nil {
		return line
	}
	if req, ok := frame["request"].(map[string]any); ok {
		delete(req, "maxNodes")
		delete(req, "maxDepth")
		delete(req, "maxTextChars")
	}
	b, err := json.Marshal(frame)
	if err != nil {
		return line
	}
	return b
}
