package process

import (
	"io"
	"os"
	"os/exec"
	"sync"
	"time"

	"github.com/fastbrowser/fastbrowser/budgets"
)

// pipeSet holds both ends of the child's stdio pipes. We make them with os.Pipe instead of
// letting os/exec do it so that Wait returns on the child's exit even while a grandchild
// still holds the write end (golang/go #21922), and so that we decide when they close.
type pipeSet struct {
	stdinR, stdinW   *os.File // stdinW is the caller's
	stdoutR, stdoutW *os.File
	stderrR, stderrW *os.File
	callerOwnsStdout bool
}

func openPipes(spec Spec) (*pipeSet, error) {
	ps := &pipeSet{callerOwnsStdout: spec.Stdout}
	var err error
	if spec.Stdin {
		if ps.stdinR, ps.stdinW, err = os.Pipe(); err != nil {
			return nil, err
		}
	}
	if ps.stdoutR, ps.stdoutW, err = os.Pipe(); err != nil {
		ps.closeAll()
		return nil, err
	}
	if ps.stderrR, ps.stderrW, err = os.Pipe(); err != nil {
		ps.closeAll()
		return nil, err
	}
	return ps, nil
}

// attach gives cmd the child's ends.
func (ps *pipeSet) attach(cmd *exec.Cmd) {
	if ps.stdinR != nil {
		cmd.Stdin = ps.stdinR
	} // else nil Stdin: os/exec opens /dev/null.
	cmd.Stdout, cmd.Stderr = ps.stdoutW, ps.stderrW
}

// closeChildEnds drops our copies of the ends the child now holds, so EOF on stdout/stderr
// means every writer (child and grandchildren) is gone.
func (ps *pipeSet) closeChildEnds() {
	closeFiles(ps.stdinR, ps.stdoutW, ps.stderrW)
}

func (ps *pipeSet) closeAll() {
	closeFiles(ps.stdinR, ps.stdinW, ps.stdoutR, ps.stdoutW, ps.stderrR, ps.stderrW)
}

// callerStdin and callerStdout return untyped nils when the caller did not ask for a pipe,
// so a nil check on the interface field works.
func (ps *pipeSet) callerStdin() io.WriteCloser {
	if ps.stdinW == nil {
		return nil
	}
	return ps.stdinW
}

func (ps *pipeSet) callerStdout() io.ReadCloser {
	if !ps.callerOwnsStdout {
		return nil
	}
	return ps.stdoutR
}

// startDrains starts the package's drains; the returned channel closes once every one of
// them has ended (EOF from all writers, or the read end closed by afterReap).
func (ps *pipeSet) startDrains(spec Spec) <-chan struct{} {
	streams := 1
	if !ps.callerOwnsStdout {
		streams = 2
	}
	var q *sinkQueue
	if spec.OutputSink != nil {
		q = newSinkQueue(spec.OutputSink, streams)
	}
	var wg sync.WaitGroup
	if !ps.callerOwnsStdout {
		wg.Go(func() { drain(ps.stdoutR, q, nil, spec.Capture) })
	}
	wg.Go(func() { drain(ps.stderrR, q, spec.StderrTap, spec.Capture) })
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	return done
}

// afterReap runs once the child is reaped. Nobody can read stdin any more. The read ends get
// the stop grace to deliver what the child wrote before exiting, then close, so a grandchild
// that inherited them and lives on cannot keep a drain (or a caller) blocked.
func (ps *pipeSet) afterReap() {
	closeFiles(ps.stdinW)
	time.AfterFunc(budgets.ProcessStopGrace().Default, func() {
		closeFiles(ps.stdoutR, ps.stderrR)
	})
}

// closeFiles closes the non-nil files; a second close of the same *os.File is harmless.
func closeFiles(files ...*os.File) {
	for _, f := range files {
		if f != nil {
			_ = f.Close()
		}
	}
}
