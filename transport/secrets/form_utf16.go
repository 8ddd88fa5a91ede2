package secrets

import (
	"strings"
	"unicode/utf16"
)

// utf16Forms are v in UTF-16 as it reaches text we let out: escaped, every character as
// \uXXXX (JavaScript's and JSON's full escape of a string, a surrogate pair above the
// Basic Multilingual Plane) in lower- and upper-case hex; and raw, its little- and
// big-endian bytes as a Windows tool, a Java or .NET program or a PowerShell log writes
// them into a log file ("s\x00e\x00…"). Invalid UTF-8 in v becomes U+FFFD, as every
// encoder does it.
func utf16Forms(v string) []string {
	units := utf16.Encode([]rune(v))
	var lower, upper strings.Builder
	le := make([]byte, 0, 2*len(units))
	be := make([]byte, 0, 2*len(units))
	for _, u := range units {
		writeEscape(&lower, u, hexLower)
		writeEscape(&upper, u, hexUpper)
		le = append(le, byte(u), byte(u>>8))
		be = append(be, byte(u>>8), byte(u))
	}
	return []string{lower.String(), upper.String(), string(le), string(be)}
}

const (
	hexLower = "0123456789abcdef"
	hexUpper = "0123456789ABCDEF"
)

// writeEscape writes u as \uXXXX with the given digits (fmt is several times slower, and
// formsOf runs on every Add).
func writeEscape(b *strings.Builder, u uint16, digits string) {
	b.WriteString(`\u`)
	b.WriteByte(digits[u>>12])
	b.WriteByte(digits[u>>8&15])
	b.WriteByte(digits[u>>4&15])
	b.WriteByte(digits[u&15])
}
