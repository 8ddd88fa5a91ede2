package mcpserver

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"net"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fastbrowser/fastbrowser/budgets"
)

// HTTPPath is where ServeHTTP answers MCP.
const HTTPPath = "/mcp"

// ServeHTTP speaks MCP's streamable HTTP transport on ln (`fastbrowser mcp --http`) until ctx
// ends, every request held to the bearer token first. Each MCP session over it is a
// connection of its own, with its own task (taskOf). An MCP session whose client sent no
// request for idle is closed, as its DELETE would: a client that went away without one
// would otherwise keep it, and the browser sessions it opened, until the server stops. At
// the end every MCP session is closed, which ends the sessions each opened, before
// ServeHTTP returns.
func (s *Server) ServeHTTP(ctx context.Context, ln net.Listener, token string, idle time.Duration) error {
	mux := http.NewServeMux()
	// The SDK's handler also refuses a request whose Host is not a loopback name on a
	// loopback listener (DNS rebinding); the token is what keeps out every other local user
	// and any page a browser on this machine shows.
	mux.Handle(HTTPPath, mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.mcp },
		&mcp.StreamableHTTPOptions{SessionTimeout: idle}))
	hs := &http.Server{Handler: bearer(token, mux), ReadHeaderTimeout: budgets.MCPHTTPHeaderRead}
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	var err error
	select {
	case <-ctx.Done():
	case err = <-served:
		served <- err
	}
	// Sessions first: an open event stream would keep its HTTP connection busy forever.
	s.closeSessions()
	stop, cancel := context.WithTimeout(context.Background(), budgets.MCPHTTPShutdown)
	defer cancel()
	if hs.Shutdown(stop) != nil {
		_ = hs.Close()
	}
	s.closeSessions() // one that began while the first close ran
	s.waitEnds()
	if err = <-served; errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	return err
}

// closeSessions closes every MCP session; each waits for its calls in flight, which are
// bounded by their operations' budgets.
func (s *Server) closeSessions() {
	var open []*mcp.ServerSession
	for ss := range s.mcp.Sessions() {
		open = append(open, ss)
	}
	for _, ss := range open {
		_ = ss.Close()
	}
}

// bearer lets a request through only with "Authorization: Bearer TOKEN"; any other gets a
// bare 401. The digests are compared, in constant time, so neither the token's bytes nor its
// length show in how long a refusal takes.
func bearer(token string, next http.Handler) http.Handler {
	want := sha256.Sum256([]byte("Bearer " + token))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got := sha256.Sum256([]byte(r.Header.Get("Authorization")))
		if subtle.ConstantTimeCompare(got[:], want[:]) != 1 {
			w.Header().Set("WWW-Authenticate", "Bearer")
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}
