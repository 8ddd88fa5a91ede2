package chromium

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sync"
)

// devtoolsPipe is the two pipes of --remote-debugging-pipe: the browser reads its fd 3 and
// writes its fd 4.
type devtoolsPipe struct {
	browserIn, toBrowser    *os.File // fd 3's pipe: the browser's end, ours
	browserOut, fromBrowser *os.File // fd 4's pipe
}

func openPipe() (*devtoolsPipe, error) {
	in, to, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	from, out, err := os.Pipe()
	if err != nil {
		_, _ = in.Close(), to.Close()
		return nil, err
	}
	return &devtoolsPipe{browserIn: in, toBrowser: to, browserOut: out, fromBrowser: from}, nil
}

// childFiles are the browser's ends, in fd order (3, 4).
func (p *devtoolsPipe) childFiles() []*os.File { return []*os.File{p.browserIn, p.browserOut} }

// started drops our copies of the browser's ends, so our read sees EOF when the browser (and
// anything it handed fd 4) is gone.
func (p *devtoolsPipe) started() { _, _ = p.browserIn.Close(), p.browserOut.Close() }

func (p *devtoolsPipe) close() {
	for _, f := range []*os.File{p.browserIn, p.toBrowser, p.browserOut, p.fromBrowser} {
		_ = f.Close()
	}
}

// version asks the browser who it is: the launch's readiness check, as the pipe has no
// "DevTools listening" line. Chromium reads the pipe once DevTools is up, so the call waits
// in the pipe until then.
func (b *Browser) version(ctx context.Context) (string, error) {
	res, err := b.gate.Call(ctx, "Browser.getVersion", nil)
	if err != nil {
		return "", err
	}
	var v struct {
		Product string `json:"product"`
	}
	if err := json.Unmarshal(res, &v); err != nil || v.Product == "" {
		return "", fmt.Errorf("Browser.getVersion gave no product")
	}
	return v.Product, nil
}

// gateLog sends the gate's notes to the launch's log, as Chromium's own stderr goes there.
func gateLog(opts Options) func(string) {
	if opts.Log == nil {
		return nil
	}
	var mu sync.Mutex
	return func(line string) {
		mu.Lock()
		defer mu.Unlock()
		_, _ = io.WriteString(opts.Log, line+"\n")
	}
}
