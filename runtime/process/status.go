package process

import (
	"os"
	"syscall"
)

// signalName is the name of the signal that ended the child, "" if it exited by itself.
func signalName(st *os.ProcessState) string {
	ws, ok := st.Sys().(syscall.WaitStatus)
	if !ok || !ws.Signaled() {
		return ""
	}
	return ws.Signal().String()
}
