package transport

import (
	"regexp"
	"strings"
)

// URLMatcher is a wait's URL match as Playwright's waitForURL reads it: a regex is searched
// for in the URL; a string is a glob matched against the whole URL, where "**" spans path
// segments, "*" matches within one (no "/"), "{a,b}" is either, "\" escapes the next
// character and everything else (a "?" included, as in Playwright since 1.52) is literal. A
// string without any of those is an exact URL.
func URLMatcher(m *ValueMatch) (func(string) bool, error) {
	if m.IsRegex() {
		re, err := m.Compile(false)
		if err != nil {
			return nil, err
		}
		return re.MatchString, nil
	}
	re, err := regexp.Compile(GlobPattern(m.String))
	if err != nil {
		return nil, err
	}
	return re.MatchString, nil
}

// GlobPattern is the anchored regular expression of a URL glob (Playwright's
// globToRegexPattern, less the character classes and "?" it no longer has).
func GlobPattern(glob string) string {
	var b strings.Builder
	b.WriteString("^")
	inGroup := false
	for i := 0; i < len(glob); i++ {
		c := glob[i]
		switch {
		case c == '\\' && i+1 < len(glob):
			i++
			b.WriteString(regexp.QuoteMeta(glob[i : i+1]))
		case c == '*':
			before := byte('/')
			if i > 0 {
				before = glob[i-1]
			}
			stars := 1
			for i+1 < len(glob) && glob[i+1] == '*' {
				stars++
				i++
			}
			after := byte('/')
			if i+1 < len(glob) {
				after = glob[i+1]
			}
			if stars > 1 && before == '/' && after == '/' {
				// "**/" at a segment boundary: any number of whole segments, none included.
				b.WriteString(`((?:[^/]*(?:/|$))*)`)
				i++ // the "/" is part of the segments
			} else { // "*", and "**" inside a segment, as Playwright reads it
				b.WriteString(`([^/]*)`)
			}
		case c == '{':
			inGroup = true
			b.WriteString("(")
		case c == '}' && inGroup:
			inGroup = false
			b.WriteString(")")
		case c == ',' && inGroup:
			b.WriteString("|")
		default:
			b.WriteString(regexp.QuoteMeta(glob[i : i+1]))
		}
	}
	b.WriteString("$")
	return b.String()
}
