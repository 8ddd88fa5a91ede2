package chromium

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"time"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/runtime/internal/cdpgate"
	"github.com/fastbrowser/fastbrowser/runtime/process"
)

// profilePattern names every profile so a leaked one is findable under the temp directory.
const profilePattern = "fastbrowser-profile-*"

// profilePrefix is profilePattern without its random part.
var profilePrefix = strings.TrimSuffix(profilePattern, "*")

// Launch starts Chromium with a fresh profile (or opts.UserDataDir) and returns once its
// DevTools URL is known. ctx bounds the launch only; the browser then lives until Close. On
// any failure nothing is left behind: the process group is killed and a temporary profile
// removed.
func Launch(ctx context.Context, opts Options) (*Browser, error) {
	timeout, err := budgets.BrowserStartup().Resolve(opts.StartupTimeout)
	if err != nil {
		return nil, &LaunchError{
			Reason: fmt.Sprintf("startup timeout %s is outside 0..%s", opts.StartupTimeout, budgets.BrowserStartup().Ceiling),
			Err:    err,
		}
	}
	exe := opts.executable()
	if err := checkExecutable(exe); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, &LaunchError{Reason: "launch cancelled", Err: err}
	}
	// What an earlier crash or SIGKILL left goes first (bounded; see sweepStale).
	sweepStale(os.TempDir())
	profile, temporary, err := openProfile(opts)
	if err != nil {
		return nil, err
	}
	if err := writePreferences(profile, opts); err != nil {
		_ = dropProfile(profile, temporary)
		return nil, &LaunchError{Reason: "cannot write the profile's preferences", Err: err}
	}
	pipe, err := openPipe()
	if err != nil {
		_ = dropProfile(profile, temporary)
		return nil, &LaunchError{Reason: "cannot make the DevTools pipe", Err: err}
	}
	proc, err := process.Start(process.Spec{
		Path:       exe,
		Args:       args(opts, profile),
		OutputSink: opts.Log,
		ExtraFiles: pipe.childFiles(),
	})
	if err != nil {
		pipe.close()
		_ = dropProfile(profile, temporary)
		return nil, &LaunchError{Reason: fmt.Sprintf("chromium at %s could not be started", exe), Err: err}
	}
	pipe.started()
	b := &Browser{proc: proc, profile: profile, temporary: temporary, pipe: pipe, udpOff: !opts.WebRTCUDP,
		gate: cdpgate.New(pipe.fromBrowser, pipe.toBrowser, gateLog(opts))}

	// The call ends with its answer, the timeout, ctx, or the pipe (a browser that exits
	// closes it).
	vctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	b.product, err = b.version(vctx)
	if err == nil {
		track(b)
		return b, nil
	}
	if b.gate.Err() != nil { // the pipe ended: the browser is exiting; say how it ended
		t := time.NewTimer(budgets.ProcessStopGrace().Default)
		select {
		case <-proc.Done():
		case <-t.C:
		}
		t.Stop()
	}
	select {
	case <-proc.Done():
		if !temporary && proc.Signal() == "" && proc.ExitCode() == profileInUseExit {
			return nil, b.abort(&LaunchError{Reason: "the profile " + profile + " is in use by another Chromium"})
		}
		return nil, b.abort(&LaunchError{Reason: "chromium exited before DevTools was ready (" + exitStatus(proc) + ")"})
	default:
	}
	switch {
	case ctx.Err() != nil:
		return nil, b.abort(&LaunchError{Reason: "launch cancelled", Err: ctx.Err()})
	case vctx.Err() != nil:
		return nil, b.abort(&LaunchError{Reason: fmt.Sprintf("DevTools did not answer within %s", timeout)})
	}
	return nil, b.abort(&LaunchError{Reason: "DevTools did not answer", Err: err})
}

// abort kills a browser that failed to come up; nothing is worth a polite TERM here.
func (b *Browser) abort(lerr *LaunchError) error {
	if err := b.teardown(b.proc.Kill); err != nil {
		lerr.Err = errors.Join(lerr.Err, err)
	}
	return lerr
}

// checkExecutable fails fast, before a profile exists, on the common setup mistakes.
func checkExecutable(exe string) error {
	fi, err := os.Stat(exe)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return &LaunchError{Reason: "chromium executable not found at " + exe, Err: err}
	case err != nil:
		return &LaunchError{Reason: "chromium executable at " + exe + " is not accessible", Err: err}
	case fi.IsDir():
		return &LaunchError{Reason: "chromium executable at " + exe + " is a directory"}
	case fi.Mode().Perm()&0o111 == 0:
		return &LaunchError{Reason: "chromium executable at " + exe + " is not executable"}
	}
	return nil
}

func exitStatus(p *process.Process) string {
	if sig := p.Signal(); sig != "" {
		return "signal " + sig
	}
	return fmt.Sprintf("exit %d", p.ExitCode())
}
