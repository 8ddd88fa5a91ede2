package worker

import (
	"github.com/fastbrowser/fastbrowser/transport/secrets"
	"github.com/fastbrowser/fastbrowser/transport/textclip"
)

// Page text is cut here, after the session's secrets are masked: those typed in this
// session and those the parent handed over (maskSecrets: a secret the runtime holds that no
// act typed). The runtime scrubs every result, message and artifact of the session's
// secrets, but only of whole ones: a cut that splits a secret would leave its first
// characters, which nothing could recognise afterwards. So every bound on page text the
// worker reports (dialog messages, assertion messages, console summaries, outline names and
// texts, read's text) cuts with clipScrubbed or cutScrubbed, and a text the page bounds
// itself is read scrubSlack past its bound first.

// masked is the set of secrets masked before a cut (nil: none yet).
func (w *Worker) masked() *secrets.Set {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.masks
}

// maskSet is masked, made when there is none yet.
func (w *Worker) maskSet() *secrets.Set {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.masks == nil {
		w.masks = secrets.New()
	}
	return w.masks
}

// scrubMasked masks every spelling of the session's secrets in text.
func (w *Worker) scrubMasked(text string) string {
	set := w.masked()
	if set == nil {
		return text
	}
	return set.Scrub(text)
}

// scrubSlack is how much further than its bound a text the page cuts is read: the longest
// spelling of a masked secret in bytes (0 when there is none), never fewer than its
// characters or UTF-16 units, so a secret that starts before the bound is whole.
func (w *Worker) scrubSlack() int {
	set := w.masked()
	if set == nil {
		return 0
	}
	return set.Longest()
}

// clipScrubbed bounds page text a result or message quotes to n characters, marking a cut
// with "…" as textclip.ClipChars does, after masking the session's secrets in it: the first n
// characters of the text scrubbed. It scrubs a head of the text (secrets.Set.ScrubHead,
// which masks a secret straddling its end whole and reads only a secret's length past it),
// twice as long each time a mask shorter than its secret leaves it under n characters, so a
// console message of megabytes costs about as much as its first n characters.
func (w *Worker) clipScrubbed(text string, n int) string {
	if _, cut := charsEnd(text, n); !cut {
		return text
	}
	set := w.masked()
	if set == nil {
		return textclip.ClipChars(text, n)
	}
	for limit := n; ; limit *= 2 {
		end, cut := charsEnd(text, limit)
		head := set.ScrubHead(text, end) // all of text, scrubbed, when !cut
		if c := textclip.ClipChars(head, n); c != head || !cut {
			return c
		}
	}
}

// charsEnd is the byte offset after s's first n characters, and whether more follow. It
// walks only as far as the cut.
func charsEnd(s string, n int) (int, bool) {
	if len(s) <= n {
		return len(s), false
	}
	count := 0
	for i := range s {
		if count == n {
			return i, true
		}
		count++
	}
	return len(s), false
}

// cutScrubbed bounds page text to n UTF-16 units, as the page's own String.slice counts
// (read's text, which is marked truncated rather than with "…"), after masking the session's
// secrets in a text that will be cut; it never splits a character, and says whether it cut.
func (w *Worker) cutScrubbed(text string, n int) (string, bool) {
	if utf16Len(text) <= n {
		return text, false
	}
	text = w.scrubMasked(text)
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

// rememberTyped adds a typed secret to the set scrubMasked masks (under w.mu).
func (w *Worker) rememberTyped(text string) {
	if w.masks == nil {
		w.masks = secrets.New()
	}
	_ = w.masks.Add(text) // the runtime accepted it already
}
