package sessions

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/fastbrowser/fastbrowser/transport"
)

// Known bot checks, by a marker their pages show in the title or text (lower case).
var botChecks = []struct{ name, marker string }{
	{"cloudflare", "cloudflare"},
	{"cloudflare", "checking your browser"},
	{"cloudflare", "just a moment"},
	{"hcaptcha", "hcaptcha"},
	{"recaptcha", "recaptcha"},
	{"recaptcha", "i'm not a robot"},
}

// refusal says whether the page is one the site refused: a bot check, or an HTTP error
// status (status 0: unknown). nil for a page that was served.
func refusal(p Page, status int) *Refused {
	if p.PageClass != transport.PageBotCheck && status < 400 && p.PageClass != transport.PageHTTPError {
		return nil
	}
	host := ""
	if u, err := url.Parse(p.URL); err == nil {
		host = u.Host
	}
	r := &Refused{Host: host, Status: status}
	if p.PageClass == transport.PageBotCheck {
		r.BotCheck = botCheckName(p.Title + "\n" + p.Outline)
		r.Message = fmt.Sprintf("%s answered with a bot check (%s): a person must pass it in the browser (cdp_url), or the site must allow this client", host, r.BotCheck)
		return r
	}
	r.Message = fmt.Sprintf("%s refused the page with HTTP %d", host, status)
	if status == 0 {
		r.Message = host + " answered with an error page"
	}
	return r
}

// botCheckName names the check a page's text shows, or "unknown".
func botCheckName(text string) string {
	t := strings.ToLower(strings.ReplaceAll(text, "’", "'"))
	for _, b := range botChecks {
		if strings.Contains(t, b.marker) {
			return b.name
		}
	}
	return "unknown"
}
