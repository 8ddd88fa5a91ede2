package process

import (
	"bytes"
	"os"
	"strconv"
)

// procStat is what the package reads from /proc/PID/stat (proc(5)).
type procStat struct {
	state     byte
	ppid      int
	pgrp      int
	flags     uint64
	startTime uint64 // clock ticks since boot: with the pid, names one process for good
	endCode   uint64 // 0 while an exec has not finished laying out the new image
	envStart  uint64
	envEnd    uint64
}

// Kernel task flags (include/linux/sched.h) as /proc/PID/stat shows them.
const (
	pfExiting = 0x00000004
	pfKthread = 0x00200000
)

// readProcStat reads /proc/PID/stat; ok is false when the process is gone or the line cannot
// be parsed.
func readProcStat(pid int) (procStat, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return procStat{}, false
	}
	return parseProcStat(b)
}

// parseProcStat parses one /proc/PID/stat line.
func parseProcStat(b []byte) (procStat, bool) {
	// comm may hold spaces and parentheses: the fields start after the last ')', at field 3.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return procStat{}, false
	}
	f := bytes.Fields(b[i+1:])
	if len(f) < 49 || len(f[0]) != 1 {
		return procStat{}, false
	}
	num := func(field int) uint64 {
		v, _ := strconv.ParseUint(string(f[field-3]), 10, 64)
		return v
	}
	return procStat{
		state:     f[0][0],
		ppid:      int(num(4)),
		pgrp:      int(num(5)),
		flags:     num(9),
		startTime: num(22),
		endCode:   num(27),
		envStart:  num(50),
		envEnd:    num(51),
	}, true
}

// gone: a zombie, dead, or exiting process no longer counts as running.
func (s procStat) gone() bool {
	return s.state == 'Z' || s.state == 'X' || s.flags&pfExiting != 0
}

func (s procStat) kernelThread() bool { return s.flags&pfKthread != 0 }
