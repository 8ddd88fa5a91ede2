package outline

import (
	"unicode/utf8"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/textclip"
)

// fold collapses every run of white space to one space, trims the ends and drops
// zero-width characters, as transport.FoldSpace does to the names a locator gives.
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
	return transport.FoldSpace(s)
}

// Clip bounds a text to n characters, marking a cut with "…". The worker passes one that
// masks the secrets typed in the session before it cuts (a cut secret could not be
// recognised by the runtime's scrub); nil is textclip.ClipChars.
type Clip func(text string, n int) string

// cut bounds s to budgets.OutlineNameChars characters, "…" included, never splitting a
// character, with clip (nil: textclip.ClipChars).
func cut(s string, clip Clip) string {
	if len(s) <= budgets.OutlineNameChars || utf8.RuneCountInString(s) <= budgets.OutlineNameChars {
		return s
	}
	if clip == nil {
		clip = textclip.ClipChars
	}
	return clip(s, budgets.OutlineNameChars-1)
}

func chars(s string) int { return utf8.RuneCountInString(s) }
