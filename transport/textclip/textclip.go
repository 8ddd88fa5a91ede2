// Package textclip is bounded text: every place that cuts a string short for a message, a
// summary or a report cuts it here, never inside a character, and marks the cut with "…".
// For ASCII, Clip(s, n) is s[:n] + "…". A leaf: it imports nothing of ours.
package textclip

import "unicode/utf8"

// ClipBytes returns the longest prefix of s of at most n bytes that does not split a
// character, and whether anything was cut.
func ClipBytes(s string, n int) (string, bool) {
	if len(s) <= n {
		return s, false
	}
	if n < 0 {
		n = 0
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n], true
}

// Clip bounds s to at most n bytes, never splitting a character, marking a cut with "…".
func Clip(s string, n int) string {
	if p, cut := ClipBytes(s, n); cut {
		return p + "…"
	}
	return s
}

// ClipChars bounds s to n characters, marking a cut with "…". It walks only as far as the
// cut: console messages can be megabytes long.
func ClipChars(s string, n int) string {
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
