package process

import (
	"bytes"
	"os"
	"strconv"
)

// Exited reports whether the child has ended, also in the moment before its reaper has
// collected it (Done closes only after the reap and a scan of its group): a zombie, or a
// pid /proc no longer lists, has ended. Its pid cannot be reused before the reap, as only
// we reap it (or its supervisor, which reports the reap at once).
func (p *Process) Exited() bool {
	if p.reaped() {
		return true
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(p.pid) + "/stat")
	if err != nil {
		return true
	}
	i := bytes.LastIndexByte(b, ')')
	return i < 0 || i+2 >= len(b) || b[i+2] == 'Z' || b[i+2] == 'X'
}
