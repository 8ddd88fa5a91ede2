package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/netip"
	"strconv"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/runtime/mcpserver"
	"github.com/fastbrowser/fastbrowser/transport/secrets"
)

// mcpHTTPTokenMin is the shortest token --http-token-env may name.
const mcpHTTPTokenMin = 16

// mcpHTTP is `mcp --http`'s listening address and token, checked before anything starts.
type mcpHTTP struct {
	addr  string
	token string
	// made: the server made the token, so it prints it (a token from the environment is the
	// operator's, and never echoed).
	made bool
	// idle closes an MCP session that made no request for this long (--http-idle-timeout).
	idle time.Duration
}

// mcpHTTPFlags reads --http, --http-token-env and --http-idle-timeout (nil: stdio).
func mcpHTTPFlags(c *cli.Context, st *state) (*mcpHTTP, error) {
	addr, env := c.String("http"), c.String("http-token-env")
	if addr == "" {
		for _, name := range []string{"http-token-env", "http-idle-timeout"} {
			if c.IsSet(name) {
				return nil, usageError("--%s needs --http 127.0.0.1:PORT", name)
			}
		}
		return nil, nil
	}
	if err := loopbackAddr(addr); err != nil {
		return nil, usageError("--http %q: %v", addr, err)
	}
	idle := c.Duration("http-idle-timeout")
	if b := budgets.SessionIdle(); idle < b.Floor || idle > b.Ceiling {
		return nil, usageError("--http-idle-timeout %s: expected a duration from %s to %s", idle, b.Floor, b.Ceiling)
	}
	h := &mcpHTTP{addr: addr, idle: idle}
	if env == "" {
		var b [32]byte
		if _, err := rand.Read(b[:]); err != nil {
			return nil, exitWith(exitFailed, "mcp: making the --http token: %v", err)
		}
		h.token, h.made = hex.EncodeToString(b[:]), true
		return h, nil
	}
	v, ok := st.lookup()(env)
	switch {
	case !ok:
		return nil, usageError("--http-token-env %s: the variable is not set", env)
	case len(v) < mcpHTTPTokenMin:
		return nil, usageError("--http-token-env %s: the token is shorter than %d characters", env, mcpHTTPTokenMin)
	}
	h.token = v
	return h, nil
}

// loopbackAddr accepts HOST:PORT whose host is a loopback IP address (127.0.0.0/8, ::1):
// a name could resolve elsewhere, and an empty host listens on every interface.
func loopbackAddr(addr string) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return errors.New("expected HOST:PORT with a loopback IP address, such as 127.0.0.1:0")
	}
	if ip, err := netip.ParseAddr(host); err != nil || !ip.IsLoopback() {
		return errors.New("expected a loopback IP address (127.0.0.1, [::1]): the server listens on this machine only")
	}
	if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		return errors.New("expected a port from 0 (any free one) to 65535")
	}
	return nil
}

// serveMCPHTTP listens, prints the one line that says where (and the token it made), and
// serves until a signal or stdin's end.
func serveMCPHTTP(ctx context.Context, st *state, srv *mcpserver.Server, h *mcpHTTP, set *secrets.Set) error {
	if !h.made && set != nil {
		// The operator's token is a secret like the --secret-env values: masked in every log.
		_ = set.Add(h.token)
	}
	ln, err := net.Listen("tcp", h.addr)
	if err != nil {
		return exitWith(exitFailed, "mcp: --http %s: %v", h.addr, err)
	}
	ready := struct {
		URL   string `json:"url"`
		Token string `json:"token,omitempty"`
	}{URL: "http://" + ln.Addr().String() + mcpserver.HTTPPath}
	if h.made {
		ready.Token = h.token
	}
	line, _ := json.Marshal(ready)
	if _, err := fmt.Fprintf(st.stdout, "%s\n", line); err != nil {
		ln.Close()
		return exitWith(exitFailed, "mcp: writing the listening line: %v", err)
	}
	// stdin's end stops the server, as over stdio: the process that started it holds it.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		_, _ = io.Copy(io.Discard, st.stdin)
		cancel()
	}()
	return srv.ServeHTTP(ctx, ln, h.token, h.idle)
}
