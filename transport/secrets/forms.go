package secrets

import "strings"

// minFormLen is the shortest form kept, in bytes. A value passes MinLen in runes, so its
// raw form always qualifies; the bound only drops fragments (short base64 middles).
const minFormLen = 4

// Forms returns every spelling of v the scrubber masks (formsOf), raw v included: what a
// sweep in a test or a CI script must find in no output. It is the scrubber's own list, so a
// sweep and the masking can never disagree about what counts as the secret.
func Forms(v string) []string { return formsOf(v) }

// formsOf returns every spelling of v that output may carry, deduplicated, raw v included.
// Each encoder lives in its own file with the reason it exists.
//
// The spellings come in two layers, as the project emits them. First what the text itself
// becomes: v re-spaced or repaired (the outline folds white space), Go-quoted (the outline
// and %q messages), URL-encoded or base64-encoded (by a page), hex- or UTF-16-encoded (by
// a server or hook that logs it as bytes or from another runtime). Then the document each of
// those is written into: JSON (results, report.json, serve), HTML (report.html) and XML
// (junit.xml). So `ab\cd"ef` is also found as the outline's `ab\\cd\"ef`, as that line in
// report.json (`ab\\\\cd\\\"ef`) and in report.html (`ab\\cd\&#34;ef`).
func formsOf(v string) []string {
	var text []string
	for _, t := range foldedForms(v) {
		text = append(text, t)
		text = append(text, quotedForms(t)...)
	}
	text = append(text, urlForms(v)...)
	text = append(text, base64Forms(v)...)
	text = append(text, hexForms(v)...)
	text = append(text, utf16Forms(v)...)

	var all []string
	for _, t := range text {
		all = append(all, t)
		all = append(all, jsonForms(t)...)
		all = append(all, htmlForms(t)...)
		all = append(all, xmlForms(t)...)
	}

	seen := make(map[string]struct{}, len(all))
	out := all[:0]
	for _, f := range all {
		if len(f) < minFormLen {
			continue
		}
		if _, ok := seen[f]; ok {
			continue
		}
		seen[f] = struct{}{}
		out = append(out, f)
	}
	return out
}

// inert reports whether every byte of t is printable ASCII other than those in special: text
// a document escaper leaves as it is, so its document forms are t itself. Most text forms
// (hex, base64, URL-encoded) are, and skipping their escapers keeps Add cheap.
func inert(t, special string) bool {
	for i := 0; i < len(t); i++ {
		if c := t[i]; c < 0x20 || c > 0x7e || strings.IndexByte(special, c) >= 0 {
			return false
		}
	}
	return true
}
