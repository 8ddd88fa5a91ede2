// Package policy owns origin policies: parsing and normalising origins, the session base
// ("*" or a non-empty list of exact origins and domain entries), narrowing, the check every
// navigation URL passes before it is dispatched. The runtime and the worker both use it; it imports nothing
// of ours (transport.PolicyRefusal says how a refusal reads as a protocol error).
//
// It is browser-free: a host that owns its own browser and egress wall can link it alone to
// parse origins (Parse, NormalizeOrigin), narrow a task's origins inside a binding (Narrow:
// deny by default, never wider) and classify each navigation, redirect or subresource URL
// (CheckURL: allowed, or a *DeniedError the host reports as egress_denied). Its whole import
// graph is the standard library, budgets, textclip and golang.org/x/net's IDNA and
// public-suffix tables (TestPolicyIsBrowserFree).
package policy

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"sort"
	"strings"

	"golang.org/x/net/idna"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/transport/textclip"
)

// Any is the base policy that allows every http/https origin.
const Any = "*"

// Policy is a base or effective origin policy. The zero value allows nothing.
type Policy struct {
	any     bool
	origins map[string]bool
	// domains are the domain entries' domains (ASCII, lower case): "*.example.com" is
	// "example.com", which allows that host and every subdomain (domain.go).
	domains map[string]bool
}

// AllowAll is the "*" policy.
func AllowAll() Policy { return Policy{any: true} }

// Parse builds a policy from a list: ["*"], or exact origins and domain entries
// ("*.example.com": domain.go). An empty list, "*" mixed with others, or an invalid entry
// is refused.
func Parse(list []string) (Policy, error) {
	if len(list) == 0 {
		return Policy{}, errors.New("an origin policy needs at least one origin")
	}
	if len(list) == 1 && list[0] == Any {
		return AllowAll(), nil
	}
	p := Policy{origins: map[string]bool{}, domains: map[string]bool{}}
	for i, o := range list {
		if isDomainEntry(o) {
			d, err := parseDomainEntry(o)
			if err != nil {
				return Policy{}, fmt.Errorf("entry %d: %w", i, err)
			}
			p.domains[d] = true
			continue
		}
		n, err := NormalizeOrigin(o)
		if err != nil {
			return Policy{}, fmt.Errorf("entry %d: %w", i, err)
		}
		p.origins[n] = true
	}
	return p, nil
}

// IsAny reports whether the policy is "*".
func (p Policy) IsAny() bool { return p.any }

// Origins lists the policy's entries, sorted: the exact origins and the domain entries
// ("*.example.com"), the form Parse reads back (["*"] for the any policy).
func (p Policy) Origins() []string {
	if p.any {
		return []string{Any}
	}
	out := make([]string, 0, len(p.origins)+len(p.domains))
	for o := range p.origins {
		out = append(out, o)
	}
	for d := range p.domains {
		out = append(out, domainPrefix+d)
	}
	sort.Strings(out)
	return out
}

// AllowsOrigin reports whether a normalised http(s) origin is allowed: "*", an exact entry,
// or a domain entry covering its host.
func (p Policy) AllowsOrigin(origin string) bool {
	if p.any {
		return strings.HasPrefix(origin, "http://") || strings.HasPrefix(origin, "https://")
	}
	return p.origins[origin] || p.domainAllows(origin)
}

// Narrow returns the effective policy for a context: every origin must be valid and allowed
// by p. Narrowing never widens.
func (p Policy) Narrow(list []string) (Policy, error) {
	if len(list) == 0 {
		return Policy{}, errors.New("a narrowed policy needs at least one origin")
	}
	n := Policy{origins: map[string]bool{}, domains: map[string]bool{}}
	for i, o := range list {
		if isDomainEntry(o) {
			d, err := parseDomainEntry(o)
			if err != nil {
				return Policy{}, fmt.Errorf("entry %d: %w", i, err)
			}
			if !p.any && !p.coversDomain(d) {
				return Policy{}, &DeniedError{Reason: fmt.Sprintf("%s%s is outside the session's origins", domainPrefix, d)}
			}
			n.domains[d] = true
			continue
		}
		if o == Any {
			// Narrowing names exact origins; "*" would widen a restricted base and
			// narrows nothing under a "*" one.
			if !p.any {
				return Policy{}, &DeniedError{Reason: "\"*\" is wider than the session's origins"}
			}
			return Policy{}, fmt.Errorf("entry %d: narrowing needs exact origins, not \"*\"", i)
		}
		norm, err := NormalizeOrigin(o)
		if err != nil {
			return Policy{}, fmt.Errorf("entry %d: %w", i, err)
		}
		if !p.AllowsOrigin(norm) {
			return Policy{}, &DeniedError{Reason: fmt.Sprintf("origin %s is outside the session's origins", norm)}
		}
		n.origins[norm] = true
	}
	return n, nil
}

// DeniedError says a URL or origin is outside the policy (as opposed to malformed).
type DeniedError struct{ Reason string }

func (e *DeniedError) Error() string { return e.Reason }

// NormalizeOrigin parses "scheme://host[:port]" and returns it lower-cased with the default
// port dropped. Paths, queries, fragments, credentials, wildcards and non-http(s) schemes are
// refused.
func NormalizeOrigin(s string) (string, error) {
	u, err := url.Parse(s)
	if err != nil || u.Host == "" {
		return "", fmt.Errorf("%q is not an origin (expected scheme://host[:port])", clip(s))
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return "", fmt.Errorf("%q is not an http or https origin", clip(s))
	}
	if u.User != nil {
		return "", fmt.Errorf("an origin must not carry credentials")
	}
	if (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" || strings.HasSuffix(s, "?") || strings.HasSuffix(s, "#") {
		return "", fmt.Errorf("%q has a path, query or fragment; an origin is scheme://host[:port]", clip(s))
	}
	if strings.Contains(u.Host, "*") {
		return "", fmt.Errorf("%q has a wildcard; origins are exact", clip(s))
	}
	if _, err := asciiHost(u.Hostname()); err != nil {
		return "", fmt.Errorf("%q has an invalid host name", clip(s))
	}
	return originOf(u), nil
}

// idnaProfile maps a host the way a browser's URL parser does (UTS #46, transitional off),
// so a Unicode host and its punycode form are the same origin.
var idnaProfile = idna.New(idna.MapForLookup(), idna.Transitional(false), idna.BidiRule())

// asciiHost lower-cases a host and converts an internationalised name to its ASCII (punycode)
// form; IP literals pass through.
func asciiHost(host string) (string, error) {
	if net.ParseIP(host) != nil {
		return strings.ToLower(host), nil
	}
	return idnaProfile.ToASCII(host)
}

// originOf gives the normalised origin of a parsed http(s) URL.
func originOf(u *url.URL) string {
	host, err := asciiHost(u.Hostname())
	if err != nil {
		host = strings.ToLower(u.Hostname()) // CheckURL refused such a host already
	}
	port := u.Port()
	if (u.Scheme == "http" && port == "80") || (u.Scheme == "https" && port == "443") {
		port = ""
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if port != "" {
		return u.Scheme + "://" + net.JoinHostPort(strings.Trim(host, "[]"), port)
	}
	return u.Scheme + "://" + host
}

// CheckURL validates a navigation URL and returns its normalised origin: bounded length,
// http/https only, no credentials, a host, and an origin the policy allows. A malformed or
// non-http(s) URL and a disallowed origin are both *DeniedError, because to the caller
// both mean "not attempted: outside what this session may load".
func (p Policy) CheckURL(raw string) (string, error) {
	if len(raw) > budgets.URLBytes {
		return "", &DeniedError{Reason: fmt.Sprintf("URL longer than %d bytes", budgets.URLBytes)}
	}
	u, err := url.Parse(raw)
	if err != nil || !u.IsAbs() {
		return "", &DeniedError{Reason: "not an absolute http or https URL"}
	}
	scheme := strings.ToLower(u.Scheme)
	if scheme != "http" && scheme != "https" {
		return "", &DeniedError{Reason: fmt.Sprintf("scheme %q is not allowed; only http and https", clip(scheme))}
	}
	u.Scheme = scheme
	if u.User != nil {
		return "", &DeniedError{Reason: "URLs with credentials are not allowed"}
	}
	if u.Host == "" {
		return "", &DeniedError{Reason: "URL has no host"}
	}
	if _, err := asciiHost(u.Hostname()); err != nil {
		return "", &DeniedError{Reason: "URL has an invalid host name"}
	}
	origin := originOf(u)
	if !p.AllowsOrigin(origin) {
		return "", &DeniedError{Reason: fmt.Sprintf("origin %s is not in the allowed origins", origin)}
	}
	return origin, nil
}

// OriginOf returns the normalised origin of an http(s) URL, or "" for anything else
// (about:blank, data:, chrome-error: …).
func OriginOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return ""
	}
	return originOf(u)
}

func clip(s string) string {
	// Messages never repeat credentials: whatever precedes an '@' after the scheme goes
	// (an '@' in a path is hidden with it, which costs nothing).
	if at := strings.LastIndex(s, "@"); at >= 0 {
		start := 0
		if i := strings.Index(s, "://"); i >= 0 && i < at {
			start = i + len("://")
		}
		s = s[:start] + "…" + s[at:]
	}
	return textclip.Clip(s, 80)
}
