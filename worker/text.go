package worker

import (
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"
)

// collapseSpace folds runs of white space to one space, as a person reads text.
func collapseSpace(s string) string { return strings.Join(strings.Fields(s), " ") }

func quote(s string) string { return strconv.Quote(s) }

func clipRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + "…"
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
