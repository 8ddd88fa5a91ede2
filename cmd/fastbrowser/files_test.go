package main

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestValidateDirWithFIFO: a *.json FIFO in a directory given to validate (or run) is
// refused as unreadable, exit 2; telling fragments from scenarios never opens it (it hung,
// waiting for a writer).
func TestValidateDirWithFIFO(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	res := runCLI(t, nil, "validate", dir)
	if res.code != exitInvalid || !strings.Contains(res.stdout+res.stderr, fifo+": (root): cannot read the file") {
		t.Fatalf("exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
}
