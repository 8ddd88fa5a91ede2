package runtime

import (
	"net/url"
	"strings"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/runtime/internal/egressproxy"
	"github.com/fastbrowser/fastbrowser/transport"
)

// What the intercepting egress proxy (tlstrust.go) learns of TLS reaches the caller three
// ways: a navigation's tlsVerified, a failed load's tls_failed error, and TLSWarnings for
// failures no operation's error took (a subresource's host, a background request).

// TLSVerified reports whether pageURL is an https page whose host's certificate the egress
// proxy verified (for its name, against the system's and the trusted CAs) during this
// browser's life, its last handshake with that origin included. False means no such
// evidence: an http page, a session without TLS trust (its tunnels are not the proxy's to
// verify; the browser checks them itself), or no handshake yet.
func (r *Runtime) TLSVerified(pageURL string) bool {
	if r.proxy == nil || !r.proxy.Intercepts() {
		return false
	}
	u, err := url.Parse(pageURL)
	if err != nil || u.Scheme != "https" {
		return false
	}
	return r.proxy.TLSVerified(egressproxy.OriginOfHTTPS(u.Host))
}

// withTLS adds what the proxy learnt of TLS during a call to its outcome: a navigation's
// result (navigate, reload, goBack, goForward: every NavigateResult) says tlsVerified (not a
// commit hook: those are for artifact payloads, hooks_test.go), and failures go to
// withTLSFailures.
func (r *Runtime) withTLS(op string, res transport.Result, err error) (transport.Result, error) {
	if nav, ok := res.(*transport.NavigateResult); ok {
		nav.TLSVerified = r.TLSVerified(nav.URL)
	}
	return res, r.withTLSFailures(op, err)
}

// withTLSFailures takes the proxy's TLS failures since the last call: a load that failed
// while a TLS connection failed fails tls_failed, saying which host and why; any other
// failure waits for TLSWarnings.
func (r *Runtime) withTLSFailures(op string, err error) error {
	if r.proxy == nil || !r.proxy.Intercepts() {
		return err
	}
	failures, seq := r.proxy.TLSFailuresAfter(r.tlsSeen)
	r.tlsSeen = seq
	if len(failures) == 0 {
		return err
	}
	if err != nil && transport.AsOperationError(op, err).Code == transport.CodeNavigationFailed {
		oe := *transport.AsOperationError(op, err)
		oe.Code, oe.Retry = transport.CodeTLSFailed, transport.RetryNever
		oe.Message = tlsSentence(failures)
		return &oe
	}
	for _, f := range failures {
		if len(r.tlsNotes) < budgets.ProxyRefusalsKept {
			r.tlsNotes = append(r.tlsNotes, tlsSentence([]egressproxy.TLSFailure{f}))
		}
	}
	return err
}

// TLSWarnings returns, once, what the proxy reported of TLS that no operation's error said:
// one sentence per failed connection ("the TLS connection to https://host:8443 failed:
// unknown authority: …"). Nil without TLS trust.
func (r *Runtime) TLSWarnings() []string {
	select {
	case r.turn <- struct{}{}: // tlsNotes is written under the turn
		defer func() { <-r.turn }()
	default:
		return nil // a call is running: its warnings come with the next look
	}
	if r.proxy != nil && r.proxy.Intercepts() {
		_ = r.withTLSFailures("", nil)
	}
	out := r.tlsNotes
	r.tlsNotes = nil
	return out
}

// tlsSentence says which connections failed and why, distinct ones only, at most three.
func tlsSentence(failures []egressproxy.TLSFailure) string {
	var parts []string
	seen := map[string]bool{}
	for _, f := range failures {
		s := "the TLS connection to " + f.Origin + " failed: " + f.Reason
		if seen[s] {
			continue
		}
		seen[s] = true
		if len(parts) == 3 {
			parts = append(parts, "…")
			break
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, "; ")
}
