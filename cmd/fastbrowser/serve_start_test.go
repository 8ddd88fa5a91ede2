package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
)

// TestServeStartFailureFrame: a serve that cannot start, read as a host reads it (stdin open,
// stdout line by line), writes exactly one error frame without an id and no ready frame,
// then exits: launch_failed and exit 1 for a browser that does not start; invalid_request
// and exit 2, naming the directory, for an --artifacts directory it refuses (a shared 1777
// one, one of ours of mode 0500: neither is chmodded), and for any flag it refuses.
func TestServeStartFailureFrame(t *testing.T) {
	dir := t.TempDir()
	notExec := filepath.Join(dir, "chromium")
	if err := os.WriteFile(notExec, []byte("#!/bin/sh\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	shared := filepath.Join(dir, "shared")
	mkdirMode(t, shared, 0o777|os.ModeSticky)
	readOnly := filepath.Join(dir, "read-only")
	mkdirMode(t, readOnly, 0o500)
	for _, c := range []struct {
		args []string
		code string
		exit int
		msg  string // in the frame's message
	}{
		{[]string{"--browser", "/bin/false"}, "launch_failed", 1, "chromium exited before DevTools was ready"},
		{[]string{"--browser", notExec}, "launch_failed", 1, ""},
		{[]string{"--artifacts", shared}, "invalid_request", 2, "--artifacts " + shared + ": is a shared directory (mode 1777"},
		{[]string{"--artifacts", readOnly}, "invalid_request", 2, "--artifacts " + readOnly + ": has mode 0500, which keeps out"},
		{[]string{"--binding-origin", "*", "--artifacts", shared}, "invalid_request", 2, "--artifacts " + shared + ": is a shared directory"},
		{[]string{"--webrtc", "maybe"}, "invalid_request", 2, `--webrtc must be "block" or "allow"`},
		{[]string{"--no-such-flag"}, "invalid_request", 2, "no-such-flag"},
	} {
		lines, exit, stderr := serveUntilExit(t, c.args...)
		if exit != c.exit || len(lines) != 1 {
			t.Errorf("serve %v: exit %d and %d stdout lines, want %d and one frame\nstdout: %q\nstderr: %s", c.args, exit, len(lines), c.exit, lines, stderr)
			continue
		}
		var f struct {
			V       int
			ID      *string
			Ready   json.RawMessage
			Posture string
			Error   struct{ Code, Message string }
		}
		if err := json.Unmarshal([]byte(lines[0]), &f); err != nil || f.V != 1 || f.ID != nil || f.Ready != nil ||
			f.Posture != "failed" || f.Error.Code != c.code || !strings.Contains(f.Error.Message, c.msg) {
			t.Errorf("serve %v: frame %s (%v), want an id-less %s error frame saying %q", c.args, lines[0], err, c.code, c.msg)
		}
	}
	for d, want := range map[string]os.FileMode{shared: os.ModeDir | os.ModeSticky | 0o777, readOnly: os.ModeDir | 0o500} {
		if fi, err := os.Lstat(d); err != nil || fi.Mode() != want {
			t.Errorf("%s: mode %v (%v), want %v unchanged", d, fi.Mode(), err, want)
		}
		if ents, _ := os.ReadDir(d); len(ents) != 0 {
			t.Errorf("%s: written in the refused directory: %v", d, ents)
		}
	}
}

// serveUntilExit runs `fastbrowser serve args…` with its stdin held open, as a host would, and
// returns its stdout lines once it has exited (bounded: serve never waits longer than a
// browser start to fail), its exit code and its stderr.
func serveUntilExit(t *testing.T, args ...string) ([]string, int, string) {
	t.Helper()
	bin, err := runtimetest.Binary()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*(budgets.BrowserStartup().Ceiling+budgets.WorkerReady().Ceiling))
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, append([]string{"serve"}, args...)...)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	// A serve that did start after all is ended as a host ends it, by its input, so it stops
	// its browser; killed only if it does not exit within the stop grace.
	cmd.Cancel, cmd.WaitDelay = in.Close, budgets.ProcessStopGrace().Ceiling
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var lines []string
	sc := bufio.NewScanner(out)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() { // until serve exits and stdout ends
		lines = append(lines, sc.Text())
	}
	err = cmd.Wait()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return lines, 0, stderr.String()
	case errors.As(err, &ee) && ctx.Err() == nil:
		return lines, ee.ExitCode(), stderr.String()
	}
	t.Fatalf("serve %v: %v (context: %v)\n%s", args, err, ctx.Err(), stderr.String())
	return nil, 0, ""
}
