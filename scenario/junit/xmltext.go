package junit

import (
	"strings"
	"unicode/utf8"
)

// xmlText returns s without the characters XML 1.0 forbids: C0 controls other than tab, LF
// and CR, lone surrogates (which in a Go string are invalid UTF-8 bytes), U+FFFE and U+FFFF.
// encoding/xml would turn them into U+FFFD; dropping them keeps a message readable (an ANSI
// "\x1b[31m" from a page becomes "[31m", not a replacement glyph) and the file valid even if
// a scrubber later rewrites bytes around them.
func xmlText(s string) string {
	if isXMLClean(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if allowed(r, size) {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

func isXMLClean(s string) bool {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if !allowed(r, size) {
			return false
		}
		i += size
	}
	return true
}

// allowed is the XML 1.0 Char production: #x9 | #xA | #xD | [#x20-#xD7FF] |
// [#xE000-#xFFFD] | [#x10000-#x10FFFF]. A size-1 RuneError is an invalid byte, not U+FFFD.
func allowed(r rune, size int) bool {
	switch {
	case r == utf8.RuneError && size == 1:
		return false
	case r == '\t' || r == '\n' || r == '\r':
		return true
	case r < 0x20:
		return false
	case r <= 0xD7FF:
		return true
	case r < 0xE000:
		return false
	case r <= 0xFFFD:
		return true
	case r <= 0xFFFF:
		return false
	default:
		return r <= utf8.MaxRune
	}
}
