package process

import (
	"bytes"
	"errors"
	"io"
	"os"
	"strconv"
	"time"

	"github.com/fastbrowser/fastbrowser/budgets"
)

// hasMarker reports whether pid's environment holds the entry marker, matching whole
// entries only.
//
// An exec in progress is waited out (bounded by budgets.ExecSettle): from the moment the
// kernel installs the new image (/proc/PID/exe already names the new program) until its ELF
// loader has laid out the environment, /proc/PID/environ reads empty, exactly like an
// environment that is empty. Taken at its word, that read made a marked process look
// unmarked (TestHasMarkerWholeEntries failed so in CI; TestHasMarkerDuringExec stretches the
// moment). So an empty read is believed only of a process that is gone, a kernel thread, or
// one whose image is complete (end_code set) and whose environment really is empty.
// A non-empty read is always a whole environment: the kernel publishes its end once, after
// the strings are in place.
func hasMarker(pid int, marker string) bool {
	deadline := time.Now().Add(budgets.ExecSettle)
	var start uint64
	for {
		found, empty := environHolds(pid, marker)
		if found || !empty {
			return found
		}
		st, ok := readProcStat(pid)
		if !ok || st.gone() || st.kernelThread() {
			return false
		}
		if start == 0 {
			start = st.startTime
		} else if st.startTime != start {
			return false // the pid now names another process
		}
		if st.endCode != 0 && st.envStart == st.envEnd {
			return false // a finished image with an empty environment (env -i)
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(budgets.ProcessPoll)
	}
}

// environHolds reads pid's environment once, streaming it (an environment may be megabytes),
// and reports whether it holds the entry marker and whether the read came back empty.
func environHolds(pid int, marker string) (found, empty bool) {
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		return false, false
	}
	defer f.Close()
	want := []byte("\x00" + marker + "\x00")
	buf := make([]byte, 0, 32<<10)
	buf = append(buf, 0) // the first entry has no NUL before it
	total := 0
	for {
		n, err := f.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		total += n
		if errors.Is(err, io.EOF) || err == nil && n == 0 {
			return bytes.Contains(append(buf, 0), want), total == 0
		}
		if err != nil {
			return false, false
		}
		if bytes.Contains(buf, want) {
			return true, false
		}
		// Keep the tail that may hold the start of a match split across reads.
		keep := min(len(buf), len(want)-1)
		buf = append(buf[:0], buf[len(buf)-keep:]...)
	}
}
