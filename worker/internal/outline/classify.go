package outline

import (
	"strings"

	"github.com/fastbrowser/fastbrowser/transport"
)

// challengePhrases mark a bot check (an interstitial that wants a person) when the title,
// a heading or page text contains one, compared in lower case with white space folded and
// typographic apostrophes made plain.
var challengePhrases = []string{
	"just a moment",
	"verify you are human",
	"are you a robot",
	"captcha",
	"checking your browser",
	"attention required",
}

// Classify returns the page class, by the first rule that holds:
//
//   - "login": status 401 with a password field (a sign-in form answering "authentication
//     required").
//   - "http_error": status >= 400 (the main document's HTTP status; 0 means unknown).
//   - "bot_check": the title, a heading or page text (text, list items, table rows, alerts,
//     status and log messages) contains one of "just a moment", "verify you are human",
//     "are you a robot", "captcha", "checking your browser", "attention required"
//     (challengePhrases; compared in lower case, white space folded, ’ read as '), or a
//     checkbox's name contains "not a robot" ("I'm not a robot").
//   - "login": the page has a password field (role "password": see Frame.Passwords).
//   - "normal" otherwise.
//
// An Outline from Build is judged on the whole page, parts cut by budgets included; an
// Outline built by hand is judged on its Nodes.
func Classify(o Outline, title string, status int) string {
	password := o.password || anyOutline(o.Nodes, func(n *transport.OutlineNode) bool { return n.Role == "password" })
	switch {
	case status == 401 && password:
		// "Authentication required" answered with a sign-in form (a wrong password's
		// answer, a session that timed out) is the login page: a person or a stored
		// credential is what it needs, not a retry.
		return transport.PageLogin
	case status >= 400:
		return transport.PageHTTPError
	case o.botCheck || challenge(title) || anyOutline(o.Nodes, isChallenge):
		return transport.PageBotCheck
	case password:
		return transport.PageLogin
	}
	return transport.PageNormal
}

func normalize(s string) string {
	return strings.ToLower(strings.ReplaceAll(fold(s), "’", "'"))
}

func challenge(s string) bool {
	s = normalize(s)
	for _, p := range challengePhrases {
		if strings.Contains(s, p) {
			return true
		}
	}
	return false
}

func robotName(name string) bool { return strings.Contains(normalize(name), "not a robot") }

// challengeText reports a node whose text says it is a bot check.
func challengeText(role, name, text string) bool {
	switch role {
	case "heading":
		return challenge(name)
	case "checkbox":
		return robotName(name)
	case "text", "listitem", "alert", "status", "log", "row":
		return challenge(text) || (role == "row" && challenge(name))
	}
	return false
}

func isChallenge(n *transport.OutlineNode) bool { return challengeText(n.Role, n.Name, n.Text) }

func anyChallenge(ns []*node) bool {
	for _, n := range ns {
		if n.more == 0 && challengeText(n.role, n.name, n.text) || anyChallenge(n.children) {
			return true
		}
	}
	return false
}

func anyOutline(ns []transport.OutlineNode, f func(*transport.OutlineNode) bool) bool {
	for i := range ns {
		if f(&ns[i]) || anyOutline(ns[i].Children, f) {
			return true
		}
	}
	return false
}
