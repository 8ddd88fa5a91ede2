package outline

import (
	"strings"
	"unicode/utf8"

	"github.com/fastbrowser/fastbrowser/transport"
)

// maxNameChars bounds one name, text or option label; longer ones end in "…".
const maxNameChars = 200

// fold collapses every run of white space to one space and trims the ends.
func fold(s string) string {
	if s == "" {
		return ""
	}
	simple := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' ||
			(c == ' ' && (i == 0 || i == len(s)-1 || s[i+1] == ' ')) {
			simple = false
			break
		}
	}
	if simple {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}

// cut bounds s to maxNameChars characters, "…" included, never splitting a character.
func cut(s string) string {
	if len(s) <= maxNameChars || utf8.RuneCountInString(s) <= maxNameChars {
		return s
	}
	return transport.ClipChars(s, maxNameChars-1)
}

func chars(s string) int { return utf8.RuneCountInString(s) }
