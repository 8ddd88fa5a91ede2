//go:build linux

package chromium

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/runtime/process/proctest"
)

// Not parallel: it counts the profiles in the private temp directory around each launch.
func TestLaunchRefusedBeforeProfile(t *testing.T) {
	for _, c := range []struct {
		name   string
		opts   Options
		reason string
	}{
		{"missing", Options{Executable: "/nonexistent/chromium"}, "chromium executable not found at /nonexistent/chromium"},
		{"directory", Options{Executable: tmpDir}, "chromium executable at " + tmpDir + " is a directory"},
		{"not executable", Options{Executable: fakeNotExecutable}, "chromium executable at " + fakeNotExecutable + " is not executable"},
		{"over ceiling", Options{StartupTimeout: budgets.BrowserStartup().Ceiling + time.Second}, "startup timeout 11s is outside 0..10s"},
	} {
		t.Run(c.name, func(t *testing.T) {
			before := profiles(t)
			_, err := Launch(context.Background(), c.opts)
			var le *LaunchError
			if !errors.As(err, &le) {
				t.Fatalf("Launch error = %v, want a *LaunchError", err)
			}
			if le.Reason != c.reason {
				t.Errorf("Reason = %q, want %q", le.Reason, c.reason)
			}
			if after := profiles(t); after != before {
				t.Errorf("profiles: %d before, %d after", before, after)
			}
		})
	}
}

func TestOverCeilingIsBudgetError(t *testing.T) {
	t.Parallel()
	_, err := Launch(context.Background(), Options{StartupTimeout: time.Minute})
	var ee *budgets.ExceededError
	if !errors.As(err, &ee) {
		t.Errorf("error %v does not wrap *budgets.ExceededError", err)
	}
}

func profiles(t *testing.T) int {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(tmpDir, profilePattern))
	if err != nil {
		t.Fatal(err)
	}
	return len(m)
}

// fakeLaunch launches a fake browser that reports its pid and profile to a file, and
// returns what it reported. When reported is not nil it is called, once, as soon as the fake
// has reported itself, while Launch still waits for it.
func fakeLaunch(t *testing.T, ctx context.Context, opts Options, reported func()) (pid int, profile string, err error) {
	t.Helper()
	info := filepath.Join(t.TempDir(), "info")
	opts.ExtraArgs = append(opts.ExtraArgs, fakeInfoArg+info)
	if reported != nil {
		launched := make(chan struct{})
		defer close(launched)
		go func() {
			for {
				if data, err := os.ReadFile(info); err == nil && len(strings.Fields(string(data))) == 2 {
					reported()
					return
				}
				select {
				case <-launched:
					return
				case <-time.After(5 * time.Millisecond):
				}
			}
		}()
	}
	b, err := Launch(ctx, opts)
	if err == nil {
		trackGroup(b.Pid())
		_ = b.Close()
		t.Fatalf("Launch of %s succeeded", opts.Executable)
	}
	data, rerr := os.ReadFile(info)
	if rerr != nil {
		return 0, "", err // the fake never ran far enough to say
	}
	f := strings.Fields(string(data))
	if len(f) != 2 {
		t.Fatalf("fake wrote %q", data)
	}
	pid, _ = strconv.Atoi(f[0])
	trackGroup(pid)
	return pid, f[1], err
}

func requireFakeGone(t *testing.T, pid int, profile string) {
	t.Helper()
	if pid <= 1 || profile == "" {
		t.Fatalf("fake did not report itself (pid %d, profile %q)", pid, profile)
	}
	proctest.RequireGroupGone(t, pid, budgets.ProcessStopGrace().Default)
	if _, err := os.Stat(profile); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("profile %s left behind (stat: %v)", profile, err)
	}
}

func TestNeverReadyTimesOut(t *testing.T) {
	t.Parallel()
	// The fake must start and report itself within the timeout for the test to check it is
	// gone: 1 s was tight for that on a loaded machine.
	const timeout = 3 * time.Second
	began := time.Now()
	pid, profile, err := fakeLaunch(t, context.Background(), Options{Executable: fakeNeverReady, StartupTimeout: timeout}, nil)
	took := time.Since(began)
	var le *LaunchError
	if !errors.As(err, &le) || le.Reason != "DevTools did not answer within 3s" {
		t.Fatalf("error = %v, want LaunchError \"DevTools did not answer within 3s\"", err)
	}
	if took < timeout {
		t.Errorf("Launch gave up after %s, before its timeout %s", took, timeout)
	}
	t.Logf("timed out after %s", took)
	requireFakeGone(t, pid, profile)
}

func TestExitsEarly(t *testing.T) {
	t.Parallel()
	_, err := Launch(context.Background(), Options{Executable: fakeExitsEarly})
	var le *LaunchError
	if !errors.As(err, &le) {
		t.Fatalf("error = %v, want a LaunchError", err)
	}
	if want := "chromium exited before DevTools was ready (exit 3)"; le.Reason != want {
		t.Errorf("Reason = %q, want %q", le.Reason, want)
	}
	if strings.Contains(err.Error(), "secret stderr detail") {
		t.Errorf("error carries Chromium's stderr: %v", err)
	}
}

func TestLaunchCancelled(t *testing.T) {
	t.Parallel()
	// Cancelled once the fake has reported itself (a fixed 300 ms deadline could end the
	// launch before a loaded machine ran the fake, leaving nothing to check); the startup
	// timeout (10 s) ends a launch whose fake never reports.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pid, profile, err := fakeLaunch(t, ctx, Options{Executable: fakeNeverReady}, cancel)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error = %v, want one wrapping context.Canceled", err)
	}
	requireFakeGone(t, pid, profile)
}
