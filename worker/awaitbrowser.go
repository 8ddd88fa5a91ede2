package worker

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/fastbrowser/fastbrowser/budgets"
)

// browserEndpoint is the first line of a worker's input under Options.AwaitBrowser: what
// the runtime learns only once its browser is up. The runtime
// starts its own worker first and launches the browser meanwhile, so the worker's process
// start is not paid after the launch (runtime/workerproc.go writes the line).
type browserEndpoint struct {
	CDPURL string `json:"cdpUrl,omitempty"`
	// CDPFd: the browser is the runtime's own, reached through the private socket the
	// worker inherited as this file descriptor (3: the first of the runtime's ExtraFiles).
	CDPFd int `json:"cdpFd,omitempty"`
}

// awaitBrowserWait bounds the wait for that line: a launch within its budget, and the
// runtime's own steps around it. A runtime that fails first closes the worker's input or
// stops it.
func awaitBrowserWait() time.Duration {
	return budgets.BrowserStartup().Ceiling + budgets.WorkerReady().Default
}

// awaitBrowser reads the endpoint line into opts, and returns the input the protocol
// continues on (the rest of the same buffered reader).
func awaitBrowser(opts *Options) (io.Reader, error) {
	in := bufio.NewReader(opts.In)
	type read struct {
		line []byte
		err  error
	}
	got := make(chan read, 1)
	go func() {
		line, err := in.ReadBytes('\n')
		got <- read{line, err}
	}()
	var r read
	select {
	case r = <-got:
	case <-time.After(awaitBrowserWait()):
		return nil, fmt.Errorf("--await-browser: no browser endpoint within %s", awaitBrowserWait())
	}
	if r.err != nil {
		return nil, errors.New("--await-browser: the input ended before the browser endpoint")
	}
	var e browserEndpoint
	if err := json.Unmarshal(r.line, &e); err != nil || (e.CDPURL == "") == (e.CDPFd == 0) {
		return nil, errors.New("--await-browser: the first input line is not {\"cdpUrl\":…} or {\"cdpFd\":…}")
	}
	if e.CDPFd != 0 && e.CDPFd < 3 {
		return nil, fmt.Errorf("--await-browser: cdpFd %d is one of stdin, stdout and stderr", e.CDPFd)
	}
	opts.CDPURL, opts.CDPFd = e.CDPURL, e.CDPFd
	return in, nil
}
