//go:build linux

package process

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestExitCode(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		script string
		code   int
	}{{"exit 0", 0}, {"exit 7", 7}} {
		p := start(t, sh(c.script))
		waitDone(t, p, 5*time.Second)
		if got := p.ExitCode(); got != c.code {
			t.Errorf("%q: ExitCode() = %d, want %d", c.script, got, c.code)
		}
		if got := p.Signal(); got != "" {
			t.Errorf("%q: Signal() = %q, want empty", c.script, got)
		}
	}
}

func TestNotReapedYet(t *testing.T) {
	t.Parallel()
	p := start(t, Spec{Path: "/bin/sleep", Args: []string{"1000"}})
	if p.ExitCode() != -1 || p.Signal() != "" {
		t.Errorf("before reap: ExitCode()=%d Signal()=%q, want -1 and empty", p.ExitCode(), p.Signal())
	}
}

func TestStartErrors(t *testing.T) {
	t.Parallel()
	for _, path := range []string{
		"",
		"sh", // a bare name must not be found on PATH
		"/nonexistent/fastbrowser-no-such-binary",
		"/tmp", // a directory
	} {
		if p, err := Start(Spec{Path: path}); err == nil {
			track(p.Pid())
			_ = p.Kill()
			t.Errorf("Start(%q) succeeded, want an error", path)
		}
	}
}

func TestEnvAndDir(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	p := start(t, Spec{
		Path:   "/bin/sh",
		Args:   []string{"-c", `echo "$FB_X|$HOME|$(pwd -P)"`},
		Dir:    dir,
		Env:    []string{"FB_X=42"},
		Stdout: true,
	})
	got := readLine(t, p.Stdout, 5*time.Second)
	real, _ := filepath.EvalSymlinks(dir)
	if want := "42||" + real; got != want {
		t.Errorf("child saw %q, want %q", got, want)
	}
	waitDone(t, p, 5*time.Second)
}

func TestEnvInheritedWhenNil(t *testing.T) {
	t.Parallel()
	home := os.Getenv("HOME")
	p := start(t, Spec{Path: "/bin/sh", Args: []string{"-c", `echo "$HOME"`}, Stdout: true})
	if got := readLine(t, p.Stdout, 5*time.Second); got != strings.TrimSpace(home) {
		t.Errorf("child HOME = %q, want %q", got, home)
	}
	waitDone(t, p, 5*time.Second)
}
