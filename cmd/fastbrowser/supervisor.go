package main

import (
	"fmt"

	"github.com/fastbrowser/fastbrowser/runtime/chromium"
	"github.com/fastbrowser/fastbrowser/runtime/process"
)

// superviseChildren makes every child this command starts (browsers, workers, managed
// servers, hooks) a child of a supervisor process, this binary re-executed, so that none of
// them, nor anything they leave running, outlives this process, even when it is killed by
// SIGKILL (process.Supervise). The supervisor starts with the first child, so commands that
// start none pay nothing. Without it (not Linux, no /proc) children start directly, after
// one note.
func superviseChildren(st *state, args []string) (stop func()) {
	return process.Supervise(process.SupervisorOptions{
		Prestart: startsChildren(args),
		OnFallback: func(err error) {
			fmt.Fprintf(st.stderr, "fastbrowser: note: %v; children are started directly, and what they leave running may outlive an abrupt end\n", err)
		},
	})
}

// startsChildren reports whether args name a command that starts a browser (and so its
// worker, and servers and hooks) at once: its supervisor is started beside the command's
// own start, not on its first child. Only a matter of time: a command missing here is
// supervised all the same, from its first child on.
func startsChildren(args []string) bool {
	if len(args) < 2 {
		return false
	}
	switch args[1] {
	case "run", "replay", "serve", "conformance":
		return true
	case "session":
		return len(args) > 2 && args[2] == "host"
	}
	return false
}

// serveSupervisor is the supervisor process's main: the temporary profiles it was told of
// are removed as Close would remove them (the singleton directory too).
func serveSupervisor() int {
	return process.ServeSupervisor(process.ServeOptions{RemoveDir: chromium.RemoveProfile})
}
