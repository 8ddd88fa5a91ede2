package worker

import (
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/transport/textclip"
)

// TestClipNeverSplitsATypedSecret: clipScrubbed and cutScrubbed mask a typed secret that
// straddles the cut; with none typed they cut as before (textclip.ClipChars, String.slice).
func TestClipNeverSplitsATypedSecret(t *testing.T) {
	const secret = "tok-9f8e7d6c5b"
	text := strings.Repeat("x", 10) + secret + strings.Repeat("y", 50)
	var w Worker
	if got, want := w.clipScrubbed(text, 14), textclip.ClipChars(text, 14); got != want {
		t.Errorf("no secret typed: %q, want %q", got, want)
	}
	w.mu.Lock()
	w.rememberTyped(secret)
	w.mu.Unlock()
	for n := 11; n < 10+len(secret); n++ {
		if got := w.clipScrubbed(text, n); strings.Contains(got, "tok-") || !strings.HasSuffix(got, "…") {
			t.Errorf("clipScrubbed(%d) = %q", n, got)
		}
		if got, cut := w.cutScrubbed(text, n); strings.Contains(got, "tok-") || !cut {
			t.Errorf("cutScrubbed(%d) = %q, %v", n, got, cut)
		}
	}
	// What is kept is the first n characters of the scrubbed text.
	if got, want := w.clipScrubbed(text, 30), strings.Repeat("x", 10)+"[secret]"+strings.Repeat("y", 12)+"…"; got != want {
		t.Errorf("clipScrubbed(30) = %q, want %q", got, want)
	}
	if got := w.clipScrubbed(text, 200); got != text {
		t.Errorf("a text that fits is left as it is: %q", got)
	}
	// cutScrubbed counts UTF-16 units, as the page does, and never splits a character.
	if got, cut := w.cutScrubbed("😀😀a", 3); got != "😀" || !cut {
		t.Errorf("cutScrubbed(emoji, 3) = %q, %v", got, cut)
	}
	if got, cut := w.cutScrubbed("😀😀a", 5); got != "😀😀a" || cut {
		t.Errorf("cutScrubbed(emoji, 5) = %q, %v", got, cut)
	}
}
