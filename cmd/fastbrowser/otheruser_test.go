//go:build linux

package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/scenarios/fixture"
)

// TestNoEndpointForOtherUsers is issue 30's first acceptance line: while `run`, `serve` and
// an open session drive a page, another user of the machine (nobody, through setpriv) finds
// no way into the browser. The intruder (testdata/intruder) tries every listening TCP socket
// the fastbrowser processes hold, as Chromium's DevTools port would answer (/json/version,
// /json/list, PUT /json/new, a browser websocket without a token) and as a proxy, and the
// session's own cdp_url (its token leaked to the intruder): nothing answers, the canary on a
// second loopback origin sees no request, and no process of the browser listens on TCP at
// all. Needs root (setpriv changes uid); CI runs as root.
func TestNoEndpointForOtherUsers(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to run the intruder as another user (CI runs as root)")
	}
	intruder := buildIntruder(t)
	canary, canarySrv := fixture.NewCanaryServer()
	defer canarySrv.Close()
	check := func(t *testing.T, pids []int, leaked ...string) {
		t.Helper()
		ports, browserPorts := listeningPorts(t, pids)
		if len(ports) == 0 {
			t.Fatalf("the processes %v hold no listening socket: nothing to try (the egress proxy at least should)", pids)
		}
		if len(browserPorts) > 0 {
			t.Errorf("the browser listens on TCP ports %v", browserPorts)
		}
		got := runIntruder(t, intruder, canarySrv.URL, ports, leaked)
		if len(got.Usable) > 0 {
			t.Errorf("another user got in through %v", got.Usable)
		}
		if n := canary.Connections(); n != 0 {
			t.Errorf("the canary saw %d connections (%v)", n, canary.Paths())
		}
	}

	t.Run("run", func(t *testing.T) {
		hold := newHoldSite(t)
		dir := t.TempDir()
		f := writeScenario(t, dir, "held.json", fmt.Sprintf(`{"version":1,"id":"held",
  "fixture":{"baseUrl":%q,"server":{"mode":"external","readiness":{"url":%q}}},
  "operations":[{"op":"navigate","request":{"url":"/hold"}},{"op":"assert","request":{"kind":"title","value":"Held"}}]}`, hold.URL, hold.URL+"/"))
		bin, _ := runtimetest.Binary()
		cmd := exec.Command(bin, "run", "--out", filepath.Join(dir, "out"), f)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		hold.awaitArrival(t, done, &out)
		check(t, append([]int{cmd.Process.Pid}, keys(descendants(cmd.Process.Pid))...))
		hold.release()
		if err := <-done; err != nil {
			t.Fatalf("run: %v\n%s", err, out.String())
		}
	})

	t.Run("serve", func(t *testing.T) {
		site := runtimetest.Fixture()
		defer site.Close()
		bin, _ := runtimetest.Binary()
		cmd := exec.Command(bin, "serve", "--allowed-origin", site.URL)
		in, _ := cmd.StdinPipe()
		stdout, _ := cmd.StdoutPipe()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		defer func() { _ = in.Close(); _ = cmd.Wait() }()
		frames := bufio.NewScanner(stdout)
		frames.Buffer(nil, 16<<20)
		if !frames.Scan() || !strings.Contains(frames.Text(), `"ready"`) {
			t.Fatalf("serve's first frame: %q", frames.Text())
		}
		fmt.Fprintf(in, `{"v":1,"id":"1","op":"navigate","request":{"url":%q}}`+"\n", site.URL+"/form")
		if !frames.Scan() || !strings.Contains(frames.Text(), `"result"`) {
			t.Fatalf("navigate: %q", frames.Text())
		}
		check(t, append([]int{cmd.Process.Pid}, keys(descendants(cmd.Process.Pid))...))
	})

	t.Run("session", func(t *testing.T) {
		site := runtimetest.Fixture()
		defer site.Close()
		s := newSessionCLI(t)
		id, opened := s.open(site.URL + "/form")
		cdpURL := opened.str("cdp_url")
		if !strings.HasPrefix(cdpURL, "ws://127.0.0.1:") {
			t.Fatalf("cdp_url %q is not the browser's token websocket", cdpURL)
		}
		host := s.record(id).HostPid
		check(t, append([]int{host}, keys(descendants(host))...), cdpURL)
		// The owner's own connection with the token works: the endpoint is real, and only
		// the intruder is refused.
		if !tokenWorks(t, cdpURL) {
			t.Errorf("the session's own user could not attach at cdp_url %s", cdpURL)
		}
	})
}

// buildIntruder builds testdata/intruder where nobody can run it (the test's own temp
// directories are private to root).
func buildIntruder(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("/tmp", "fastbrowser-intruder-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "intruder")
	if out, err := exec.Command("go", "build", "-o", bin, "./testdata/intruder").CombinedOutput(); err != nil {
		t.Fatalf("go build intruder: %v\n%s", err, out)
	}
	return bin
}

type intrusion struct {
	Ports  int      `json:"ports"`
	Usable []string `json:"usable"`
}

// runIntruder runs the intruder as nobody against ports (and the leaked URLs).
func runIntruder(t *testing.T, bin, canary string, ports []int, leaked []string) intrusion {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	args := []string{"--reuid=nobody", "--regid=nogroup", "--clear-groups", "--", bin, "-canary", canary, "-ports", joinInts(ports)}
	cmd := exec.CommandContext(ctx, "setpriv", append(args, leaked...)...)
	cmd.Dir = "/"
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("intruder: %v\n%s", err, out)
	}
	var got intrusion
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("intruder printed %q: %v", out, err)
	}
	t.Logf("as nobody: %d listening ports on the machine, tried %v: usable %v", got.Ports, ports, got.Usable)
	return got
}

// listeningPorts is every TCP port a process of pids listens on, and those of them held by
// a Chromium process (one started with a fastbrowser profile).
func listeningPorts(t *testing.T, pids []int) (all, browser []int) {
	t.Helper()
	listen := map[string]int{} // socket inode → port
	for _, table := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		b, err := os.ReadFile(table)
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(b), "\n")[1:] {
			f := strings.Fields(line)
			if len(f) < 10 || f[3] != "0A" {
				continue
			}
			_, hexPort, _ := strings.Cut(f[1], ":")
			if p, err := strconv.ParseUint(hexPort, 16, 16); err == nil {
				listen[f[9]] = int(p)
			}
		}
	}
	for _, pid := range pids {
		cmdline, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
		isBrowser := bytes.Contains(cmdline, []byte("--user-data-dir=")) && bytes.Contains(cmdline, []byte("fastbrowser-profile-"))
		fds, _ := os.ReadDir("/proc/" + strconv.Itoa(pid) + "/fd")
		for _, fd := range fds {
			link, err := os.Readlink("/proc/" + strconv.Itoa(pid) + "/fd/" + fd.Name())
			inode, ok := strings.CutPrefix(link, "socket:[")
			if err != nil || !ok {
				continue
			}
			if p, ok := listen[strings.TrimSuffix(inode, "]")]; ok {
				all = append(all, p)
				if isBrowser {
					browser = append(browser, p)
				}
			}
		}
	}
	return all, browser
}

// tokenWorks: the token websocket answers Browser.getVersion to this user.
func tokenWorks(t *testing.T, ws string) bool {
	t.Helper()
	c, _, err := websocket.DefaultDialer.Dial(ws, nil)
	if err != nil {
		t.Logf("dial %s: %v", ws, err)
		return false
	}
	defer c.Close()
	if err := c.WriteMessage(websocket.TextMessage, []byte(`{"id":1,"method":"Browser.getVersion"}`)); err != nil {
		return false
	}
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
	for {
		_, msg, err := c.ReadMessage()
		if err != nil {
			return false
		}
		if bytes.HasPrefix(msg, []byte(`{"id":1,"result":{`)) {
			return true
		}
	}
}

// holdSite is an external fixture whose /hold page answers only when the test says, so
// `run` is certainly mid-operation while the intruder tries.
type holdSite struct {
	*httptest.Server
	arrived chan struct{}
	freed   chan struct{}
}

func newHoldSite(t *testing.T) *holdSite {
	h := &holdSite{arrived: make(chan struct{}, 1), freed: make(chan struct{})}
	h.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/hold" {
			select {
			case h.arrived <- struct{}{}:
			default:
			}
			select {
			case <-h.freed:
			case <-r.Context().Done():
			}
		}
		io.WriteString(w, "<!doctype html><title>Held</title><p>held")
	}))
	t.Cleanup(func() { h.release(); h.Close() })
	return h
}

func (h *holdSite) release() {
	select {
	case <-h.freed:
	default:
		close(h.freed)
	}
}

// awaitArrival waits for the run's navigation to reach /hold (or the run to end first).
func (h *holdSite) awaitArrival(t *testing.T, done <-chan error, out *bytes.Buffer) {
	t.Helper()
	select {
	case <-h.arrived:
	case err := <-done:
		t.Fatalf("run ended before its navigation arrived: %v\n%s", err, out.String())
	case <-time.After(60 * time.Second):
		t.Fatalf("run's navigation did not arrive\n%s", out.String())
	}
}

func keys(m map[int]uint64) []int {
	out := make([]int, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

func joinInts(ns []int) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, ",")
}
