package main

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/fastbrowser/fastbrowser/runtime/process/proctest"
	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/scenario/sessions"
	"github.com/fastbrowser/fastbrowser/scenarios/fixture"
)

// The session end-to-end tests (issue 12's acceptance) run every `fastbrowser session`
// command as its own process of the built binary, as a person or an agent would, with a
// private state directory per test.

// sessionEndLimit bounds a test's wait for a session to end by itself or for its processes
// to go: generous, as the machine is shared; a correct session is far inside it.
const sessionEndLimit = 30 * time.Second

// sessionCLI runs session commands for one test against its own state directory and keeps
// everything they printed (for the secret sweep).
type sessionCLI struct {
	t     testing.TB
	bin   string
	state string

	mu      sync.Mutex
	printed map[string][]byte // "#n args stdout|stderr" → bytes
	n       int
}

func newSessionCLI(t testing.TB) *sessionCLI {
	t.Helper()
	bin, err := runtimetest.Binary()
	if err != nil {
		t.Fatal(err)
	}
	// A short path: the host's unix socket lives under it, and a socket path is at most
	// 108 bytes (t.TempDir's names are long).
	state, err := os.MkdirTemp("", "fbs")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(state) })
	return &sessionCLI{t: t, bin: bin, state: state, printed: map[string][]byte{}}
}

// sessionRun is one command's outcome.
type sessionRun struct {
	code           int
	stdout, stderr string
	obj            map[string]any // stdout's one JSON object
}

// errorCode is the "error.code" of a failure's object ("" when none).
func (r sessionRun) errorCode() string { return r.str("error", "code") }

// str follows keys through nested objects to a string ("" when absent).
func (r sessionRun) str(keys ...string) string {
	var v any = r.obj
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return ""
		}
		v = m[k]
	}
	s, _ := v.(string)
	return s
}

// sessionCmdOpts are a command's stdin, working directory and extra environment.
type sessionCmdOpts struct {
	stdin string
	dir   string
	env   []string // NAME=VALUE, added to the test's environment for this command only
}

// command is the exec.Cmd of one session command: the test's environment without any
// PORTAL_PASSWORD (only the command given it has it) and with this test's state directory.
func (s *sessionCLI) command(o sessionCmdOpts, args ...string) *exec.Cmd {
	cmd := exec.Command(s.bin, args...)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PORTAL_PASSWORD=") && !strings.HasPrefix(kv, "FASTBROWSER_STATE_DIR=") &&
			!strings.HasPrefix(kv, fixture.ShopPasswordEnv+"=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(append(cmd.Env, "FASTBROWSER_STATE_DIR="+s.state), o.env...)
	cmd.Dir = o.dir
	cmd.Stdin = strings.NewReader(o.stdin)
	return cmd
}

// run runs one command to its end and checks that its stdout is exactly one JSON object on
// one line, whatever the exit code.
func (s *sessionCLI) run(o sessionCmdOpts, args ...string) sessionRun {
	s.t.Helper()
	cmd := s.command(o, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	return s.finish(cmd, err, stdout.Bytes(), stderr.Bytes(), args)
}

// finish records what a finished command printed and parses its one object.
func (s *sessionCLI) finish(cmd *exec.Cmd, err error, stdout, stderr []byte, args []string) sessionRun {
	s.t.Helper()
	r := sessionRun{code: cmd.ProcessState.ExitCode(), stdout: string(stdout), stderr: string(stderr)}
	if err != nil && cmd.ProcessState == nil {
		s.t.Fatalf("%v: %v", args, err)
	}
	s.mu.Lock()
	s.n++
	name := "#" + strconv.Itoa(s.n) + " " + strings.Join(args, " ")
	s.printed[name+" stdout"] = stdout
	s.printed[name+" stderr"] = stderr
	s.mu.Unlock()
	r.obj = oneJSONObject(s.t, args, stdout)
	return r
}

// oneJSONObject fails t unless out is exactly one line holding one JSON object.
func oneJSONObject(t testing.TB, args []string, out []byte) map[string]any {
	t.Helper()
	line, rest, ok := bytes.Cut(out, []byte("\n"))
	if !ok || len(rest) != 0 {
		t.Errorf("%v: stdout is not exactly one line:\n%s", args, out)
	}
	var obj map[string]any
	dec := json.NewDecoder(bytes.NewReader(line))
	if err := dec.Decode(&obj); err != nil || obj == nil || dec.More() {
		t.Errorf("%v: stdout is not one JSON object (%v):\n%s", args, err, out)
	}
	return obj
}

// want fails t unless r exited code with error code errCode ("" for none).
func (r sessionRun) want(t *testing.T, what string, code int, errCode string) {
	t.Helper()
	if r.code != code || r.errorCode() != errCode {
		t.Errorf("%s: exit %d, error code %q; want exit %d, code %q\nstdout: %s\nstderr: %s", what, r.code, r.errorCode(), code, errCode, r.stdout, r.stderr)
	}
}

// open opens a session on url and closes it when the test ends.
func (s *sessionCLI) open(url string, flags ...string) (string, sessionRun) {
	s.t.Helper()
	r := s.run(sessionCmdOpts{}, append(append([]string{"session", "open"}, flags...), url)...)
	id := r.str("id")
	if r.code != 0 || id == "" {
		s.t.Fatalf("session open %s: exit %d\nstdout: %s\nstderr: %s", url, r.code, r.stdout, r.stderr)
	}
	s.t.Cleanup(func() { s.run(sessionCmdOpts{}, "session", "close", id) })
	return id, r
}

// do runs one operation in session id.
func (s *sessionCLI) do(id, op string) sessionRun {
	s.t.Helper()
	return s.run(sessionCmdOpts{stdin: op}, "session", "do", id)
}

// doRead runs a read that must succeed: the session is usable.
func (s *sessionCLI) doRead(id, after string) {
	s.t.Helper()
	r := s.do(id, `{"op":"read"}`)
	if r.code != 0 || r.str("status") != sessions.StatusDone {
		s.t.Errorf("after %s, a read: exit %d\n%s", after, r.code, r.stdout)
	}
}

// sessionDir finds session id's directory under the state directory (wherever the state
// layout puts it: the directory named id holding session.json).
func (s *sessionCLI) sessionDir(id string) string {
	s.t.Helper()
	var found string
	_ = filepath.WalkDir(s.state, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() && d.Name() == id {
			if _, err := os.Stat(filepath.Join(p, "session.json")); err == nil {
				found = p
				return filepath.SkipAll
			}
		}
		return nil
	})
	if found == "" {
		s.t.Fatalf("no directory of session %s with a session.json under %s", id, s.state)
	}
	return found
}

// record reads session id's session.json.
func (s *sessionCLI) record(id string) sessions.Record {
	s.t.Helper()
	var rec sessions.Record
	b, err := os.ReadFile(filepath.Join(s.sessionDir(id), "session.json"))
	if err == nil {
		err = json.Unmarshal(b, &rec)
	}
	if err != nil {
		s.t.Fatalf("session.json of %s: %v", id, err)
	}
	return rec
}

// exportTo runs `session export ID --out file` and returns the file and its operations.
func (s *sessionCLI) exportTo(id, file string) ([]byte, []json.RawMessage) {
	s.t.Helper()
	exp := s.run(sessionCmdOpts{}, "session", "export", id, "--out", file)
	if exp.code != 0 || exp.str("out") != file {
		s.t.Fatalf("export: exit %d\n%s", exp.code, exp.stdout)
	}
	exported, err := os.ReadFile(file)
	if err != nil {
		s.t.Fatal(err)
	}
	var f struct {
		Operations []json.RawMessage `json:"operations"`
	}
	if err := json.Unmarshal(exported, &f); err != nil {
		s.t.Fatalf("the export is not JSON: %v\n%s", err, exported)
	}
	return exported, f.Operations
}

// listed is session id as `session list` shows it (nil when not listed).
func (s *sessionCLI) listed(id string) map[string]any {
	s.t.Helper()
	r := s.run(sessionCmdOpts{}, "session", "list")
	if r.code != 0 {
		s.t.Fatalf("session list: exit %d\n%s", r.code, r.stdout)
	}
	all, _ := r.obj["sessions"].([]any)
	for _, e := range all {
		if m, _ := e.(map[string]any); m["id"] == id {
			return m
		}
	}
	return nil
}

// sockets lists the unix socket files under dir.
func sockets(dir string) []string {
	var out []string
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type()&fs.ModeSocket != 0 {
			out = append(out, p)
		}
		return nil
	})
	return out
}

// descendants lists every live process below pid (the host's worker, Chromium and its
// helpers), with its start time so a reused pid is not mistaken for it later.
func descendants(pid int) map[int]uint64 {
	children := map[int][]int{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if st, ok := proctest.ReadStat(p); ok && st.Live() {
			children[st.PPid] = append(children[st.PPid], p)
		}
	}
	out := map[int]uint64{}
	var walk func(int)
	walk = func(p int) {
		for _, c := range children[p] {
			if st, ok := proctest.ReadStat(c); ok {
				out[c] = st.StartTime
			}
			walk(c)
		}
	}
	walk(pid)
	return out
}

// stillAlive is the processes of procs that still run (same pid and start time).
func stillAlive(procs map[int]uint64) []int {
	var live []int
	for pid, start := range procs {
		if st, ok := proctest.ReadStat(pid); ok && st.Live() && st.StartTime == start {
			live = append(live, pid)
		}
	}
	return live
}

// shopServer starts `fastbrowser fixture serve` on a free port with the shop's password in
// its environment (and only there), and returns its base URL; it is stopped and reaped when
// the test ends.
func shopServer(t *testing.T, password string) string {
	t.Helper()
	bin, _ := runtimetest.Binary()
	addr := freeAddr(t)
	cmd := exec.Command(bin, "fixture", "serve", "--addr", addr)
	cmd.Env = append(os.Environ(), fixture.ShopPasswordEnv+"="+password)
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		_ = cmd.Wait()
	})
	base := "http://" + addr
	if !proctest.PollUntil(sessionEndLimit, func() bool {
		resp, err := http.Get(base + "/health")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	}) {
		t.Fatalf("fixture serve on %s never became ready", addr)
	}
	return base
}
