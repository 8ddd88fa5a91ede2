package worker

import (
	"net/url"
	"strconv"
	"strings"
)

// collapseSpace folds runs of white space to one space, as a person reads text.
func collapseSpace(s string) string { return strings.Join(strings.Fields(s), " ") }

func quote(s string) string { return strconv.Quote(s) }

// urlWithoutQuery drops the query and fragment, which may carry tokens.
func urlWithoutQuery(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	u.RawQuery, u.Fragment, u.RawFragment, u.User = "", "", "", nil
	return u.String()
}
