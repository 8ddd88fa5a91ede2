package secrets

import (
	"net/url"
	"strings"
)

// urlForms are the percent-encodings a secret gets when it lands in a URL: Go's own
// escapers (our reports build URLs with them), and the browser's (a page that puts a typed
// value in a link or submits a GET form), which keep different punctuation unescaped.
func urlForms(v string) []string {
	q := url.QueryEscape(v)
	return []string{
		q,
		strings.ReplaceAll(q, "+", "%20"),
		url.PathEscape(v),
		// encodeURIComponent
		percentEncode(v, "-_.!~*'()", false),
		// encodeURI
		percentEncode(v, "-_.!~*'();,/?:@&=+$#", false),
		// application/x-www-form-urlencoded as browsers serialise forms
		percentEncode(v, "*-._", true),
	}
}

// percentEncode escapes every byte except ASCII letters, digits and those in keep, with
// upper-case hex; spacePlus writes a space as '+'.
func percentEncode(v, keep string, spacePlus bool) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9',
			strings.IndexByte(keep, c) >= 0:
			b.WriteByte(c)
		case c == ' ' && spacePlus:
			b.WriteByte('+')
		default:
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		}
	}
	return b.String()
}
