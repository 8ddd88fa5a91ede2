package policy

import (
	"errors"
	"fmt"
	"net"
	"strings"

	"golang.org/x/net/publicsuffix"
)

// A domain entry, "*.example.com", allows the host example.com and every host below it
// (a.example.com, b.a.example.com), over http and https on any port: what the seed's
// --allowed-domain means, and what "*.example.com" means in Chromium's own match patterns.
// A look-alike (evilexample.com, example.com.evil.test) is another host and is refused.

// domainPrefix starts every domain entry.
const domainPrefix = "*."

// isDomainEntry: s is meant as a domain entry (it may still be a malformed one).
func isDomainEntry(s string) bool { return strings.HasPrefix(s, domainPrefix) }

// DomainEntry is the policy entry of a bare domain such as `session open --allowed-domain
// example.com` takes: "*.example.com", the domain lower-cased and in its ASCII (punycode)
// form. It refuses what is not a domain name a site lives under: a URL or scheme, a path,
// a port, a wildcard, an IP address (use an exact origin), a name ending in a number
// (browsers read it as an IPv4 address), and a public suffix (com, co.uk, github.io), which
// would allow every site under it.
func DomainEntry(domain string) (string, error) {
	d, err := checkDomain(domain)
	if err != nil {
		return "", err
	}
	return domainPrefix + d, nil
}

// parseDomainEntry reads "*.DOMAIN" and returns DOMAIN normalised.
func parseDomainEntry(entry string) (string, error) {
	d, err := checkDomain(strings.TrimPrefix(entry, domainPrefix))
	if err != nil {
		return "", fmt.Errorf("domain entry %q: %w", clip(entry), err)
	}
	return d, nil
}

func checkDomain(domain string) (string, error) {
	switch {
	case domain == "":
		return "", errors.New("expected a domain such as example.com, got nothing")
	case strings.Contains(domain, "://"):
		return "", fmt.Errorf("%q is a URL; expected a domain alone, such as example.com", clip(domain))
	case strings.ContainsAny(domain, "/?#@"):
		return "", fmt.Errorf("%q has a path, query or credentials; expected a domain alone, such as example.com", clip(domain))
	case net.ParseIP(strings.Trim(domain, "[]")) != nil:
		return "", fmt.Errorf("%q is an IP address, which has no subdomains; allow it as an exact origin (http://%s:PORT)", clip(domain), clip(domain))
	case strings.Contains(domain, ":"):
		return "", fmt.Errorf("%q has a port; a domain allows every port: give the domain alone", clip(domain))
	case strings.Contains(domain, "*"):
		return "", fmt.Errorf("%q has a wildcard; the domain alone (example.com) already allows its subdomains", clip(domain))
	}
	d, err := asciiHost(domain)
	if err != nil || d == "" {
		return "", fmt.Errorf("%q is not a valid domain name", clip(domain))
	}
	labels := strings.Split(d, ".")
	for _, l := range labels {
		if l == "" {
			return "", fmt.Errorf("%q has an empty label (a leading, trailing or double dot)", clip(domain))
		}
	}
	if strings.Trim(labels[len(labels)-1], "0123456789") == "" {
		return "", fmt.Errorf("%q ends in a number, which browsers read as an IP address", clip(domain))
	}
	if suffix, _ := publicsuffix.PublicSuffix(d); suffix == d {
		return "", fmt.Errorf("%q is a public suffix: allowing it would allow every site under it; name a domain below it", clip(domain))
	}
	return d, nil
}

// domainAllows: a domain entry covers the host of origin (normalised http(s)
// "scheme://host[:port]"). An IPv6 literal is covered by none.
func (p Policy) domainAllows(origin string) bool {
	if len(p.domains) == 0 {
		return false
	}
	scheme, rest, ok := strings.Cut(origin, "://")
	if !ok || (scheme != "http" && scheme != "https") || strings.HasPrefix(rest, "[") {
		return false
	}
	host, _, _ := strings.Cut(rest, ":")
	return p.coversDomain(host)
}

// coversDomain: host is one of p's domains or below one.
func (p Policy) coversDomain(host string) bool {
	for d := range p.domains {
		if host == d || strings.HasSuffix(host, "."+d) {
			return true
		}
	}
	return false
}
