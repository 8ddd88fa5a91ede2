package secrets

import (
	"bytes"
	"encoding/json"
	"io"
)

// ScrubJSON is ScrubBytes for a JSON document. It first scrubs every string (keys
// included) decoded, so a secret the text already held escaped once — a page's
// outerHTML or JSON.stringify — is found in the text, not only as that text's JSON
// spelling, which no form list can cover for every pair of layers. A string that changes
// is re-encoded in place; everything else, layout included, stays byte for byte. Then the
// bytes are scrubbed as well, unless that would break the document (a form matching
// across tokens, or digits of a number): valid JSON in, valid JSON out. Input that is not
// valid JSON is scrubbed as bytes only. b is never modified.
func (s *Set) ScrubJSON(b []byte) []byte {
	if len(s.snapshot().forms) == 0 {
		return b
	}
	var out []byte // nil until a string changes
	at := 0        // b[:at] is already in out
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	prev := int64(0)
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return s.ScrubBytes(b)
		}
		end := dec.InputOffset()
		if str, ok := tok.(string); ok {
			if clean := s.Scrub(str); clean != str {
				start := stringStart(b, int(prev), int(end))
				enc, _ := json.Marshal(clean) // a string always encodes
				out = append(append(out, b[at:start]...), enc...)
				at = int(end)
			}
		}
		prev = end
	}
	if out == nil {
		out = b
	} else {
		out = append(out, b[at:]...)
	}
	if both := s.ScrubBytes(out); json.Valid(both) {
		return both
	}
	return out
}

// stringStart is where the string token that ends at end begins: Token consumes the
// separators and white space before a value, so it is the first quote after prev.
func stringStart(b []byte, prev, end int) int {
	if i := bytes.IndexByte(b[prev:end], '"'); i >= 0 {
		return prev + i
	}
	return prev
}
