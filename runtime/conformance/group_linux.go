package conformance

import (
	"bytes"
	"os"
	"strconv"
)

// groupMembers lists the live (not zombie) processes in process group pgid, from /proc:
// the runtime starts the worker and the browser each as the leader of its own group.
func groupMembers(pgid int) []string {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return []string{"(cannot read /proc: " + err.Error() + ")"}
	}
	var left []string
	for _, ent := range ents {
		pid, err := strconv.Atoi(ent.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile("/proc/" + ent.Name() + "/stat")
		if err != nil {
			continue // gone meanwhile
		}
		// After the ")" closing the command: state, ppid, pgrp.
		i := bytes.LastIndexByte(stat, ')')
		if i < 0 {
			continue
		}
		f := bytes.Fields(stat[i+1:])
		if len(f) < 3 || string(f[0]) == "Z" || string(f[2]) != strconv.Itoa(pgid) {
			continue
		}
		left = append(left, "pid "+strconv.Itoa(pid))
	}
	return left
}
