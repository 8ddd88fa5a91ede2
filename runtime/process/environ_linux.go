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

// hasMarker reports whether pid's environment holds the entry marker (whole entries only).
func hasMarker(pid int, marker string) bool {
	_, ok := environEntry(pid, len(marker), func(e []byte) bool { return string(e) == marker })
	return ok
}

// environEntry returns the first entry of pid's environment, at most limit bytes long, that
// match accepts. It streams the file (an environment may be megabytes): longer entries are
// skipped unread.
//
// An exec in progress is waited out (bounded by budgets.ExecSettle): from the moment the
// kernel installs the new image (/proc/PID/exe already names the new program) until its ELF
// loader has laid out the environment, /proc/PID/environ reads empty, exactly like an
// environment that is empty. Taken at its word, that read made a marked process look
// unmarked (TestHasMarkerWholeEntries failed so in CI; TestHasMarkerDuringExec catches the
// moment). So an empty read is believed only of a process that is gone, a kernel thread, or
// one whose image is complete (end_code set) and whose environment really is empty. A
// non-empty read is always a whole environment: the kernel publishes its end once, after
// the strings are in place.
func environEntry(pid, limit int, match func([]byte) bool) ([]byte, bool) {
	deadline := time.Now().Add(budgets.ExecSettle)
	var start uint64
	for {
		e, found, empty := scanEnviron(pid, limit, match)
		if found || !empty {
			return e, found
		}
		st, ok := readProcStat(pid)
		if !ok || st.gone() || st.kernelThread() {
			return nil, false
		}
		if start == 0 {
			start = st.startTime
		} else if st.startTime != start {
			return nil, false // the pid now names another process
		}
		if st.endCode != 0 && st.envStart == st.envEnd {
			return nil, false // a finished image with an empty environment (env -i)
		}
		if time.Now().After(deadline) {
			return nil, false
		}
		time.Sleep(budgets.ProcessPoll)
	}
}

// scanEnviron reads pid's environment once and reports the first entry match accepts, and
// whether the read came back empty.
func scanEnviron(pid, limit int, match func([]byte) bool) (entry []byte, found, empty bool) {
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		return nil, false, false
	}
	defer f.Close()
	buf := make([]byte, 32<<10)
	cur := make([]byte, 0, limit)
	long := false // the entry being read is over limit: it cannot match
	total := 0
	end := func() bool { // the entry in cur is complete
		ok := !long && match(cur)
		if !ok {
			cur, long = cur[:0], false
		}
		return ok
	}
	for {
		n, err := f.Read(buf)
		total += n
		for b := buf[:n]; len(b) > 0; {
			i := bytes.IndexByte(b, 0)
			part := b
			if i >= 0 {
				part = b[:i]
			}
			if !long && len(cur)+len(part) <= limit {
				cur = append(cur, part...)
			} else {
				long = true
			}
			if i < 0 {
				break
			}
			if end() {
				return cur, true, false
			}
			b = b[i+1:]
		}
		if errors.Is(err, io.EOF) || err == nil && n == 0 {
			// The last entry may lack its NUL.
			if total > 0 && (len(cur) > 0 || long) && end() {
				return cur, true, false
			}
			return nil, false, total == 0
		}
		if err != nil {
			return nil, false, false
		}
	}
}
