package main

import (
	"bytes"
	"net"
	"os"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/process/proctest"
	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/scenario/sessions"
)

// sessionProcs is what one open session runs: its host, everything below it (worker,
// Chromium and its helpers), the temporary profile and the egress proxy's address.
type sessionProcs struct {
	host     int
	below    map[int]uint64
	profile  string
	proxy    string // host:port from Chromium's --proxy-server
	chromium int    // processes whose command line names the profile
}

var proxyFlag = regexp.MustCompile(`--proxy-server[= ](?:http://)?([0-9.]+:[0-9]+)`)

// procsOf finds session id's processes from its session.json (hostPid, tempProfile) and
// /proc, and fails t unless there is a live host with a Chromium on the profile below it.
func (s *sessionCLI) procsOf(id string) sessionProcs {
	s.t.Helper()
	rec := s.record(id)
	p := sessionProcs{host: rec.HostPid, profile: rec.TempProfile}
	if p.host == 0 || !runtimetest.PidAlive(p.host) || p.profile == "" {
		s.t.Fatalf("session.json of %s: hostPid %d (alive %v), tempProfile %q", id, p.host, runtimetest.PidAlive(p.host), p.profile)
	}
	p.below = descendants(p.host)
	p.chromium = len(proctest.Cmdlines(p.profile))
	for pid := range p.below { // the worker is given the proxy's address
		b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
		if m := proxyFlag.FindSubmatch(bytes.ReplaceAll(b, []byte{0}, []byte{' '})); m != nil {
			p.proxy = string(m[1])
		}
	}
	if p.chromium == 0 || len(p.below) == 0 || p.proxy == "" {
		s.t.Fatalf("session %s: %d processes below host %d, %d on profile %s, proxy %q", id, len(p.below), p.host, p.chromium, p.profile, p.proxy)
	}
	return p
}

// requireGone waits (bounded) until nothing of p runs: no process names the profile, no
// process that was below the host lives, the host has exited, and the proxy is not
// listening. The temporary profile directory is gone too.
func (p sessionProcs) requireGone(t *testing.T) {
	t.Helper()
	var onProfile map[int]string
	var below []int
	gone := proctest.PollUntil(sessionEndLimit, func() bool {
		onProfile, below = proctest.Cmdlines(p.profile), stillAlive(p.below)
		return len(onProfile) == 0 && len(below) == 0 && !runtimetest.PidAlive(p.host)
	})
	if !gone {
		t.Errorf("after %s: processes on the profile %v, below the host %v, host %d alive %v", sessionEndLimit, onProfile, below, p.host, runtimetest.PidAlive(p.host))
	}
	if c, err := net.Dial("tcp", p.proxy); err == nil {
		c.Close()
		t.Errorf("the egress proxy at %s still accepts connections", p.proxy)
	}
	var statErr error
	if !proctest.PollUntil(sessionEndLimit, func() bool { _, statErr = os.Stat(p.profile); return os.IsNotExist(statErr) }) {
		t.Errorf("the temporary profile %s is still there (%v)", p.profile, statErr)
	}
}

// TestSessionIdleTimeoutEnds is issue 12's acceptance 3: a session opened with
// --idle-timeout 2s ends by itself; do answers session_ended; export and list still work
// and list says ended (idle); no Chromium, worker or proxy of it is left.
func TestSessionIdleTimeoutEnds(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	s := newSessionCLI(t)
	id, _ := s.open(site.URL+"/form", "--idle-timeout", "2s")
	s.doRead(id, "open")
	procs := s.procsOf(id)

	var entry map[string]any
	if !proctest.PollUntil(sessionEndLimit, func() bool {
		entry = s.listed(id)
		return entry != nil && entry["state"] == sessions.StateEnded
	}) {
		t.Fatalf("the session did not end by itself within %s: %v", sessionEndLimit, entry)
	}
	if entry["reason"] != sessions.EndIdle {
		t.Errorf("list: %v; want state ended, reason idle", entry)
	}
	procs.requireGone(t)

	s.do(id, `{"op":"read"}`).want(t, "do on the idle-ended session", 1, sessions.CodeEnded)
	s.run(sessionCmdOpts{}, "session", "describe", id).want(t, "describe on the idle-ended session", 1, sessions.CodeEnded)
	exp := s.run(sessionCmdOpts{}, "session", "export", id)
	if exp.code != 0 || !strings.Contains(exp.stdout, `"op":"read"`) {
		t.Errorf("export of the idle-ended session: exit %d\n%s", exp.code, exp.stdout)
	}
	if e := s.listed(id); e == nil || e["state"] != sessions.StateEnded || e["reason"] != sessions.EndIdle {
		t.Errorf("list after export: %v", e)
	}
}

// TestSessionHostKilled is issue 12's acceptance 4: SIGKILL of the session host takes its
// browser with it; the next list shows the session ended (host_died), its socket is gone,
// and its temporary profile is removed.
func TestSessionHostKilled(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	s := newSessionCLI(t)
	id, _ := s.open(site.URL + "/form")
	procs := s.procsOf(id)
	dir := s.sessionDir(id)
	if len(sockets(dir)) == 0 {
		t.Fatalf("no socket under %s while the session is open", dir)
	}
	if err := syscall.Kill(procs.host, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	var onProfile map[int]string
	if !proctest.PollUntil(sessionEndLimit, func() bool { onProfile = proctest.Cmdlines(procs.profile); return len(onProfile) == 0 }) {
		t.Errorf("Chromium outlived its killed host by %s: %v", sessionEndLimit, onProfile)
	}
	e := s.listed(id)
	if e == nil || e["state"] != sessions.StateEnded || e["reason"] != sessions.EndHostDied {
		t.Errorf("list after the host was killed: %v; want state ended, reason host_died", e)
	}
	if left := sockets(dir); len(left) != 0 {
		t.Errorf("sockets left after the sweep: %v", left)
	}
	procs.requireGone(t)
	s.do(id, `{"op":"read"}`).want(t, "do on the host_died session", 1, sessions.CodeEnded)
}
