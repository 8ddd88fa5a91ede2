// Command intruder is what another local user of the machine can try against a running
// fastbrowser: TestNoEndpointForOtherUsers runs it as nobody during `run`, `serve` and an
// open session. It finds every listening TCP socket on the machine (/proc/net/tcp, as any
// user may; -ports keeps those the test knows are fastbrowser's, as other tests' browsers
// may be listening on purpose at the same time), asks each what Chromium's DevTools port answers, tries a browser websocket
// without a token, asks an HTTP proxy there for the canary, and, given leaked token URLs,
// tries those too. It prints {"ports":N,"usable":[…]}: each way in that worked.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gorilla/websocket"
)

func main() {
	canaryFlag := flag.String("canary", "", "the canary's URL: what a way in would open")
	only := flag.String("ports", "", "try only these ports (comma-separated), of those listening")
	flag.Parse()
	canary := *canaryFlag
	if canary == "" {
		fmt.Fprintln(os.Stderr, "usage: intruder -canary URL [-ports P,…] [LEAKED_WS_URL…]")
		os.Exit(2)
	}
	var usable []string
	ports := listening()
	client := &http.Client{Timeout: 2 * time.Second}
	for _, p := range ports {
		if *only != "" && !slices.Contains(strings.Split(*only, ","), strconv.Itoa(p)) {
			continue
		}
		base := "http://127.0.0.1:" + strconv.Itoa(p)
		if body, ok := get(client, base+"/json/version"); ok && strings.Contains(body, "webSocketDebuggerUrl") {
			usable = append(usable, base+"/json/version")
		}
		if body, ok := get(client, base+"/json/list"); ok && strings.HasPrefix(strings.TrimSpace(body), "[") {
			usable = append(usable, base+"/json/list")
		}
		req, _ := http.NewRequest(http.MethodPut, base+"/json/new?"+canary, nil)
		if resp, err := client.Do(req); err == nil {
			if resp.StatusCode == http.StatusOK {
				usable = append(usable, base+"/json/new")
			}
			resp.Body.Close()
		}
		for _, path := range []string{"/devtools/browser", "/devtools/browser/"} {
			if works("ws://127.0.0.1:"+strconv.Itoa(p)+path, canary) {
				usable = append(usable, "ws://127.0.0.1:"+strconv.Itoa(p)+path)
			}
		}
		// A proxy there would fetch the canary for us.
		px := &http.Client{Timeout: 2 * time.Second, Transport: &http.Transport{Proxy: http.ProxyURL(mustURL(base))}}
		if resp, err := px.Get(canary + "/via-proxy"); err == nil {
			if resp.StatusCode == http.StatusOK {
				usable = append(usable, base+" as a proxy")
			}
			resp.Body.Close()
		}
	}
	for _, leaked := range flag.Args() {
		if works(leaked, canary) {
			usable = append(usable, "the leaked "+leaked)
		}
	}
	_ = json.NewEncoder(os.Stdout).Encode(map[string]any{"ports": len(ports), "usable": usable})
}

// works dials a browser websocket and, if it gets in, opens a tab on the canary and asks
// the browser its version: true if the browser answered.
func works(ws, canary string) bool {
	d := websocket.Dialer{HandshakeTimeout: 2 * time.Second}
	c, _, err := d.Dial(ws, nil)
	if err != nil {
		return false
	}
	defer c.Close()
	_ = c.WriteMessage(websocket.TextMessage, []byte(`{"id":1,"method":"Target.createTarget","params":{"url":`+strconv.Quote(canary+"/via-devtools")+`}}`))
	_ = c.WriteMessage(websocket.TextMessage, []byte(`{"id":2,"method":"Browser.getVersion"}`))
	_ = c.SetReadDeadline(time.Now().Add(2 * time.Second))
	for {
		_, msg, err := c.ReadMessage()
		if err != nil {
			return false
		}
		var m struct {
			ID     int
			Result json.RawMessage
		}
		if json.Unmarshal(msg, &m) == nil && m.ID == 2 && len(m.Result) > 0 {
			return true
		}
	}
}

func get(c *http.Client, u string) (string, bool) {
	resp, err := c.Get(u)
	if err != nil {
		return "", false
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<16))
	return string(b), resp.StatusCode == http.StatusOK
}

func mustURL(s string) *url.URL {
	u, _ := url.Parse(s)
	return u
}

// listening is every port with a listening TCP socket, v4 or v6, on any address.
func listening() []int {
	seen := map[int]bool{}
	var ports []int
	for _, table := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		f, err := os.Open(table)
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(f)
		sc.Scan()
		for sc.Scan() {
			fields := strings.Fields(sc.Text())
			if len(fields) < 4 || fields[3] != "0A" { // TCP_LISTEN
				continue
			}
			_, hexPort, _ := strings.Cut(fields[1], ":")
			p, err := strconv.ParseUint(hexPort, 16, 16)
			if err == nil && !seen[int(p)] {
				seen[int(p)] = true
				ports = append(ports, int(p))
			}
		}
		f.Close()
	}
	return ports
}
