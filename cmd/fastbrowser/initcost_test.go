package main

import (
	"bytes"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
)

// initBytesPerPackage bounds what one of fastbrowser's own packages may allocate in package
// initialisation. Every fastbrowser process — each worker, each `session` command — runs
// every linked package's init, whatever it is there to do, so a template, a rendered page
// or a compiled regexp built at start is paid by all of them: build it on first use
// (sync.OnceValue) instead. The largest today is worker's handler table (~28 KB).
const initBytesPerPackage = 64 << 10

// initLine is one line of GODEBUG=inittrace=1: "init PKG @T ms, T ms clock, N bytes, N allocs".
var initLine = regexp.MustCompile(`^init (\S+) @.* clock, (\d+) bytes, (\d+) allocs$`)

func TestOwnPackageInitsAllocateLittle(t *testing.T) {
	bin, err := runtimetest.Binary()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "version")
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = nil, &stderr
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	if err := cmd.Run(); err != nil {
		t.Fatalf("fastbrowser version: %v\n%s", err, stderr.String())
	}
	own := 0
	for line := range strings.Lines(stderr.String()) {
		m := initLine.FindStringSubmatch(strings.TrimSpace(line))
		if m == nil || !strings.HasPrefix(m[1], "github.com/fastbrowser/fastbrowser/") {
			continue
		}
		own++
		if n, _ := strconv.Atoi(m[2]); n > initBytesPerPackage {
			t.Errorf("package %s allocates %d bytes (%s allocs) in its init, more than %d: build what it builds on first use", m[1], n, m[3], initBytesPerPackage)
		}
	}
	if own == 0 {
		t.Fatalf("no init line of a fastbrowser package in the inittrace output:\n%s", stderr.String())
	}
}
