package runtimetest

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/fastbrowser/fastbrowser/transport/textclip"
)

// Snapshot is the set of fastbrowser processes and profiles that existed at one moment.
type Snapshot struct {
	procs    map[int]string
	profiles map[string]bool
}

// Take records the current fastbrowser-related processes (Chromium with a
// fastbrowser-profile, fastbrowser workers and fixture servers) and profile directories.
func Take() Snapshot {
	s := Snapshot{procs: map[int]string{}, profiles: map[string]bool{}}
	for pid, cmd := range fastbrowserProcs() {
		s.procs[pid] = cmd
	}
	matches, _ := filepath.Glob(filepath.Join(os.TempDir(), "fastbrowser-profile-*"))
	for _, m := range matches {
		s.profiles[m] = true
	}
	return s
}

// Leaks compares now with s and describes every process or profile that appeared since.
func (s Snapshot) Leaks() error {
	now := Take()
	var leaks []string
	for pid, cmd := range now.procs {
		if _, ok := s.procs[pid]; !ok {
			leaks = append(leaks, fmt.Sprintf("process %d: %s", pid, cmd))
		}
	}
	for p := range now.profiles {
		if !s.profiles[p] {
			leaks = append(leaks, "profile directory "+p)
		}
	}
	if len(leaks) == 0 {
		return nil
	}
	return fmt.Errorf("leaked:\n  %s", strings.Join(leaks, "\n  "))
}

// PidAlive reports whether pid exists and is not a zombie.
func PidAlive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	// The state follows the ")" that closes the command name.
	i := strings.LastIndexByte(string(b), ')')
	return i < 0 || i+2 >= len(b) || b[i+2] != 'Z'
}

// scope is the temp directory this test process's profiles and binaries live under; with
// Isolate it is private, so test packages running side by side never see each other's
// processes as leaks.
func scope() string { return os.TempDir() }

// Isolate points TMPDIR at a fresh private directory for this test process. Call it first
// in TestMain; Cleanup removes the directory.
func Isolate() error {
	dir, err := os.MkdirTemp("", "fastbrowser-test-*")
	if err != nil {
		return err
	}
	isolated = dir
	return os.Setenv("TMPDIR", dir)
}

var isolated string

// fastbrowserProcs lists live processes whose command line marks them as ours.
func fastbrowserProcs() map[int]string {
	out := map[int]string{}
	entries, _ := os.ReadDir("/proc")
	self := os.Getpid()
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self || !PidAlive(pid) {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err != nil {
			continue
		}
		cmd := strings.ReplaceAll(strings.TrimRight(string(b), "\x00"), "\x00", " ")
		if strings.Contains(cmd, scope()) && (strings.Contains(cmd, "fastbrowser-profile-") || strings.Contains(cmd, "fastbrowser-testbin-")) {
			out[pid] = textclip.Clip(cmd, 200)
		}
	}
	return out
}

// AwaitNoLeaks waits a bounded moment for processes being reaped to go, then reports
// anything that appeared since before.
func AwaitNoLeaks(before Snapshot) error {
	deadline := time.Now().Add(5 * time.Second)
	for {
		err := before.Leaks()
		if err == nil || time.Now().After(deadline) {
			return err
		}
		time.Sleep(100 * time.Millisecond)
	}
}
