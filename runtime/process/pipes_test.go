//go:build linux

package process

import (
	"bufio"
	"io"
	"testing"
	"time"

	"github.com/fastbrowser/fastbrowser/budgets"
)

func TestStdinStdoutEcho(t *testing.T) {
	t.Parallel()
	p := start(t, Spec{Path: "/bin/cat", Stdin: true, Stdout: true})
	if p.Stdin == nil || p.Stdout == nil {
		t.Fatal("Stdin or Stdout pipe missing")
	}
	r := bufio.NewReader(p.Stdout)
	for _, line := range []string{"hello\n", "second line\n"} {
		if _, err := io.WriteString(p.Stdin, line); err != nil {
			t.Fatalf("write: %v", err)
		}
		got := make(chan string, 1)
		go func() { s, _ := r.ReadString('\n'); got <- s }()
		select {
		case s := <-got:
			if s != line {
				t.Errorf("echo = %q, want %q", s, line)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("no echo within 5s")
		}
	}
	if err := p.Stdin.Close(); err != nil {
		t.Fatalf("close stdin: %v", err)
	}
	rest, err := io.ReadAll(r)
	if err != nil || len(rest) != 0 {
		t.Errorf("after EOF: read %q, %v; want nothing, nil", rest, err)
	}
	waitDone(t, p, 5*time.Second)
	if p.ExitCode() != 0 {
		t.Errorf("ExitCode() = %d, want 0", p.ExitCode())
	}
}

func TestNoPipesUnlessAsked(t *testing.T) {
	t.Parallel()
	p := start(t, sh("exit 0"))
	if p.Stdin != nil || p.Stdout != nil {
		t.Errorf("Stdin=%v Stdout=%v, want both nil", p.Stdin, p.Stdout)
	}
	waitDone(t, p, 5*time.Second)
}

// A grandchild that keeps the stdout pipe must not keep a caller's read blocked forever:
// after the reap the pipe closes within the stop grace.
func TestCallerStdoutClosedAfterReap(t *testing.T) {
	t.Parallel()
	spec := sh(`/bin/sleep 1000 & echo $!`)
	spec.Stdout = true
	p := start(t, spec)
	readPid(t, p.Stdout)
	waitDone(t, p, 5*time.Second)
	ended := make(chan error, 1)
	go func() { _, err := io.ReadAll(p.Stdout); ended <- err }()
	// The pipe closes the stop grace after the reap; the bound leaves a loaded machine room
	// on top, and the grandchild (sleeping 1000 s) would hold the pipe far longer.
	limit := budgets.ProcessStopGrace().Default + 8*time.Second
	select {
	case <-ended:
	case <-time.After(limit):
		t.Fatalf("read of stdout still blocked %s after the reap", limit)
	}
}
