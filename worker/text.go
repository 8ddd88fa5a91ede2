package worker

import (
	"net/url"
	"strconv"
	"strings"
)

// collapseSpace folds runs of white space to one space, as a person reads text.
func collapseSpace(s string) string { return strings.Join(strings.Fields(s), " ") }

func quote(s string) string { return strconv.Quote(s) }

// clipRunes bounds s to n characters, never splitting one, marking a cut with "…". It
// walks only as far as the cut: console messages can be megabytes long.
func clipRunes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	count := 0
	for i := range s {
		if count == n {
			return s[:i] + "…"
		}
		count++
	}
	return s
}

// urlWithoutQuery drops the query and fragment, which may carry tokens.
func urlWithoutQuery(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	u.RawQuery, u.Fragment, u.RawFragment, u.User = "", "", "", nil
	return u.String()
}
