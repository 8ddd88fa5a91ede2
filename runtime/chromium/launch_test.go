//go:build linux

package chromium

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/target"
	"github.com/mafredri/cdp/rpcc"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/runtime/process/proctest"
)

// launch starts a real Chromium for one test and closes it when the test ends.
func launch(t *testing.T, opts Options) *Browser {
	t.Helper()
	b, err := Launch(context.Background(), opts)
	if err != nil {
		t.Fatalf("Launch: %v", err)
	}
	trackGroup(b.Pid())
	t.Cleanup(func() { _ = b.Close() })
	return b
}

// requireClosedClean checks what Close promises: the whole group gone, the profile removed.
func requireClosedClean(t *testing.T, b *Browser) {
	t.Helper()
	proctest.RequireGroupGone(t, b.Pid(), budgets.ProcessStopGrace().Default)
	if _, err := os.Stat(b.ProfileDir()); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("profile %s still there after Close (stat: %v)", b.ProfileDir(), err)
	}
}

// browserVersion dials the browser websocket and asks for its version.
func browserVersion(t *testing.T, b *Browser) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), budgets.CDPCall().Default)
	defer cancel()
	conn, err := rpcc.DialContext(ctx, b.WebSocketURL())
	if err != nil {
		t.Fatalf("dial %s: %v", b.WebSocketURL(), err)
	}
	defer conn.Close()
	v, err := cdp.NewClient(conn).Browser.GetVersion(ctx)
	if err != nil {
		t.Fatalf("Browser.getVersion: %v", err)
	}
	return v.Product
}

var wsURL = regexp.MustCompile(`^ws://127\.0\.0\.1:\d+/devtools/browser/[0-9a-f-]+$`)

func TestLaunchAndClose(t *testing.T) {
	t.Parallel()
	log := &proctest.SyncBuffer{}
	b := launch(t, Options{Log: log, Executable: fakeLoud})
	if !wsURL.MatchString(b.WebSocketURL()) {
		t.Errorf("WebSocketURL() = %q", b.WebSocketURL())
	}
	if got := filepath.Base(b.ProfileDir()); !strings.HasPrefix(got, "fastbrowser-profile-") {
		t.Errorf("ProfileDir() = %q", b.ProfileDir())
	}
	if !proctest.Alive(b.Pid()) {
		t.Fatalf("pid %d not running", b.Pid())
	}
	if v := browserVersion(t, b); !strings.Contains(v, "Chrom") {
		t.Errorf("product = %q", v)
	}
	// Chromium's singleton directory (under TMPDIR, named by the profile's SingletonSocket
	// link) is removed with the profile: a killed Chromium would leave it in /tmp.
	link, err := os.Readlink(filepath.Join(b.ProfileDir(), "SingletonSocket"))
	if err != nil {
		t.Fatalf("no SingletonSocket link in the profile: %v", err)
	}
	singleton := filepath.Dir(link)
	if _, err := os.Stat(singleton); err != nil {
		t.Fatalf("singleton directory %s: %v", singleton, err)
	}
	if err := b.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	select {
	case <-b.Done():
	default:
		t.Error("Done not closed after Close")
	}
	requireClosedClean(t, b)
	if _, err := os.Stat(singleton); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("singleton directory %s still there after Close (stat: %v)", singleton, err)
	}
	// The log is written from its own goroutine; Close waited for the process, not for it.
	if !proctest.PollUntil(5*time.Second, func() bool { return strings.Contains(log.String(), stderrMarker) }) {
		t.Error("Chromium's stderr did not reach Options.Log")
	}
}

// --no-startup-window leaves the browser without a tab; the runtime depends on making its own.
func TestCreateTarget(t *testing.T) {
	t.Parallel()
	b := launch(t, Options{})
	ctx, cancel := context.WithTimeout(context.Background(), budgets.CDPCall().Default)
	defer cancel()
	conn, err := rpcc.DialContext(ctx, b.WebSocketURL())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	c := cdp.NewClient(conn)
	created, err := c.Target.CreateTarget(ctx, target.NewCreateTargetArgs("about:blank"))
	if err != nil {
		t.Fatalf("Target.createTarget: %v", err)
	}
	targets, err := c.Target.GetTargets(ctx, target.NewGetTargetsArgs())
	if err != nil {
		t.Fatalf("Target.getTargets: %v", err)
	}
	found := false
	for _, ti := range targets.TargetInfos {
		found = found || ti.TargetID == created.TargetID
	}
	if !found {
		t.Errorf("created target %s not listed", created.TargetID)
	}
}

func TestCloseIdempotentAndConcurrent(t *testing.T) {
	t.Parallel()
	b := launch(t, Options{})
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for range 8 {
		wg.Go(func() { errs <- b.Close() })
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Errorf("concurrent Close: %v", err)
		}
	}
	if err := b.Close(); err != nil {
		t.Errorf("Close again: %v", err)
	}
	requireClosedClean(t, b)
}

func TestKilledExternally(t *testing.T) {
	t.Parallel()
	b := launch(t, Options{})
	if err := syscall.Kill(b.Pid(), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	select {
	case <-b.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("Done not closed 5s after SIGKILL")
	}
	if _, err := os.Stat(b.ProfileDir()); err != nil {
		t.Fatalf("profile gone before Close: %v", err)
	}
	if err := b.Close(); err != nil {
		t.Fatalf("Close after external kill: %v", err)
	}
	requireClosedClean(t, b)
}

func TestTwoBrowsersInParallel(t *testing.T) {
	t.Parallel()
	var (
		wg       sync.WaitGroup
		browsers [2]*Browser
		errs     [2]error
	)
	for i := range browsers {
		wg.Go(func() { browsers[i], errs[i] = Launch(context.Background(), Options{}) })
	}
	wg.Wait()
	for i, b := range browsers {
		if errs[i] != nil {
			t.Fatalf("Launch %d: %v", i, errs[i])
		}
		trackGroup(b.Pid())
		t.Cleanup(func() { _ = b.Close() })
	}
	a, b := browsers[0], browsers[1]
	if a.WebSocketURL() == b.WebSocketURL() || a.ProfileDir() == b.ProfileDir() || a.Pid() == b.Pid() {
		t.Fatalf("browsers share state: %q %q", a.WebSocketURL(), b.WebSocketURL())
	}
	browserVersion(t, a)
	browserVersion(t, b)
	if err := a.Close(); err != nil {
		t.Fatalf("Close first: %v", err)
	}
	requireClosedClean(t, a)
	browserVersion(t, b) // the second is untouched by the first's teardown
	if err := b.Close(); err != nil {
		t.Fatalf("Close second: %v", err)
	}
	requireClosedClean(t, b)
}
