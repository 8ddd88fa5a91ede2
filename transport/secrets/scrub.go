package secrets

import "slices"

// span is a half-open byte range [start, end) of text to mask.
type span struct{ start, end int }

// Scrub returns text with every registered form of every secret replaced by Mask.
// Overlapping occurrences (two forms, or two secrets sharing bytes) become one Mask, so
// no tail of either survives; adjacent ones stay separate Masks.
func (s *Set) Scrub(text string) string {
	spans := s.snapshot().find(text)
	if len(spans) == 0 {
		return text
	}
	return string(render(nil, text, spans, false))
}

// ScrubBytes is Scrub for a byte slice. It returns b itself when there is nothing to mask
// and a new slice otherwise; b is never modified.
func (s *Set) ScrubBytes(b []byte) []byte {
	t := s.snapshot()
	if len(t.forms) == 0 {
		return b // nothing registered: not even the copy find needs (a run's whole report)
	}
	text := string(b)
	spans := t.find(text)
	if len(spans) == 0 {
		return b
	}
	return render(make([]byte, 0, len(b)), text, spans, false)
}

// merge sorts spans and joins those that overlap. Spans that only touch stay apart: that
// keeps one Mask per secret for "secretsecret", and makes Writer's output independent of
// where it cuts (a cut between two touching spans cannot know about the second).
func merge(hits []span) []span {
	if len(hits) == 0 {
		return nil
	}
	slices.SortFunc(hits, func(a, b span) int { return a.start - b.start })
	out := hits[:1]
	for _, h := range hits[1:] {
		last := &out[len(out)-1]
		if h.start < last.end {
			last.end = max(last.end, h.end)
			continue
		}
		out = append(out, h)
	}
	return out
}

// render appends text to dst with each span replaced by Mask. When continued is true the
// first span begins at 0 and its Mask was already written (see Writer), so it is dropped.
func render(dst []byte, text string, spans []span, continued bool) []byte {
	at := 0
	for i, sp := range spans {
		dst = append(dst, text[at:sp.start]...)
		if !(continued && i == 0) {
			dst = append(dst, Mask...)
		}
		at = sp.end
	}
	return append(dst, text[at:]...)
}

// ScrubHead returns the first end bytes of text (end at a character boundary) with every
// occurrence of a form that begins before end masked whole: one that straddles end becomes
// a Mask the result ends with. It looks only Longest bytes past end, so cutting a long
// text (a console message of megabytes) costs no more than its head; a secret at the cut
// leaves no part of itself, which Scrub on the cut text could not recognise.
func (s *Set) ScrubHead(text string, end int) string {
	if end >= len(text) {
		return s.Scrub(text)
	}
	t := s.snapshot()
	head := text[:min(len(text), end+t.maxLen)]
	var keep []span
	for _, sp := range t.find(head) {
		if sp.start < end {
			keep = append(keep, sp)
		}
	}
	if len(keep) == 0 {
		return text[:end]
	}
	return string(render(nil, head[:max(end, keep[len(keep)-1].end)], keep, false))
}
