package worker

import (
	"unicode/utf8"

	"github.com/fastbrowser/fastbrowser/runtime/secrets"
	"github.com/fastbrowser/fastbrowser/transport"
)

// Page text is cut here, after the secrets typed in this session are masked. The runtime
// scrubs every result, message and artifact of the session's secrets, but only of whole
// ones: a cut that splits a secret would leave its first characters, which nothing could
// recognise afterwards. So every bound on page text the worker reports (dialog messages,
// assertion messages, console summaries, outline names and texts, read's text) cuts with
// clipScrubbed or cutScrubbed, and a text the page bounds itself is read scrubSlack past its
// bound first.

// scrubTyped masks every spelling of the secrets typed in this session in text.
func (w *Worker) scrubTyped(text string) string {
	w.mu.Lock()
	set := w.typedSet
	w.mu.Unlock()
	if set == nil {
		return text
	}
	return set.Scrub(text)
}

// scrubSlack is how much further than its bound a text the page cuts is read: the longest
// spelling of a typed secret in bytes (0 when none was typed), never fewer than its
// characters or UTF-16 units, so a secret that starts before the bound is whole.
func (w *Worker) scrubSlack() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.typedSet == nil {
		return 0
	}
	return w.typedSet.Longest()
}

// clipScrubbed bounds page text a result or message quotes to n characters, marking a cut
// with "…" (transport.ClipChars), after masking the typed secrets in a text that will be cut.
func (w *Worker) clipScrubbed(text string, n int) string {
	if utf8.RuneCountInString(text) <= n {
		return text
	}
	return transport.ClipChars(w.scrubTyped(text), n)
}

// cutScrubbed bounds page text to n UTF-16 units, as the page's own String.slice counts
// (read's text, which is marked truncated rather than with "…"), after masking the typed
// secrets in a text that will be cut; it never splits a character, and says whether it cut.
func (w *Worker) cutScrubbed(text string, n int) (string, bool) {
	if utf16Len(text) <= n {
		return text, false
	}
	text = w.scrubTyped(text)
	units := 0
	for i, r := range text {
		size := 1
		if r > 0xFFFF {
			size = 2
		}
		if units+size > n {
			return text[:i], true
		}
		units += size
	}
	return text, false
}

func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n++
		if r > 0xFFFF {
			n++
		}
	}
	return n
}

// rememberTyped adds a typed secret to the set scrubTyped masks (under w.mu).
func (w *Worker) rememberTyped(text string) {
	if w.typedSet == nil {
		w.typedSet = secrets.New()
	}
	_ = w.typedSet.Add(text) // the runtime accepted it already
}
