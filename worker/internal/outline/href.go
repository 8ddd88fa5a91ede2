package outline

import (
	"net/url"
	"strings"
)

// href renders a link's URL (Chromium's "url" AX property, absolute): on the page's own
// origin as path and query, elsewhere as origin and path. A query on another origin may
// carry a token or an address and is never shown; neither is a fragment or user info.
// Other schemes show only the scheme ("mailto:").
func (c *converter) href(raw string) string {
	if raw == "" {
		return ""
	}
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" {
		return ""
	}
	scheme := strings.ToLower(u.Scheme)
	if scheme != "http" && scheme != "https" {
		return scheme + ":"
	}
	path := u.EscapedPath()
	if path == "" {
		path = "/"
	}
	if c.page != nil && strings.EqualFold(c.page.Scheme, scheme) && strings.EqualFold(c.page.Host, u.Host) {
		if u.RawQuery != "" {
			path += "?" + u.RawQuery
		}
		return path
	}
	return scheme + "://" + strings.ToLower(u.Host) + path
}
