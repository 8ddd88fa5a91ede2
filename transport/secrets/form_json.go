package secrets

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf16"
)

// jsonForms are the contents of v as a JSON string: with Go's default HTML escaping of
// < > & (json.Marshal, our reports), without it (json.Encoder with SetEscapeHTML(false),
// and what browsers' JSON.stringify produces), and each of those with every non-ASCII
// character as \uXXXX (Python's json.dumps default and other ASCII-only encoders).
func jsonForms(v string) []string {
	if inert(v, jsonSpecial) {
		return nil
	}
	escaped := jsonString(v, true)
	plain := jsonString(v, false)
	return []string{escaped, plain, asciiJSON(escaped), asciiJSON(plain)}
}

// jsonSpecial is the printable ASCII a JSON encoder escapes (< > & only with HTML escaping).
const jsonSpecial = `"\<>&`

// jsonString returns the JSON encoding of v without its surrounding quotes.
func jsonString(v string, escapeHTML bool) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(escapeHTML)
	if err := enc.Encode(v); err != nil {
		return "" // a string always encodes; an empty form is dropped by formsOf
	}
	s := strings.TrimSuffix(b.String(), "\n")
	return s[1 : len(s)-1]
}

// asciiJSON rewrites every non-ASCII character of an encoded JSON string as \uXXXX,
// using a surrogate pair above the Basic Multilingual Plane as JSON requires.
func asciiJSON(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r < 0x80:
			b.WriteRune(r)
		case r > 0xFFFF:
			r1, r2 := utf16.EncodeRune(r)
			fmt.Fprintf(&b, `\u%04x\u%04x`, r1, r2)
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
	}
	return b.String()
}
