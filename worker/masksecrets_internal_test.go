package worker

import (
	"context"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/policy"
)

// TestMaskSecretsMasksBeforeTheCut: a value handed over by maskSecrets is masked before a cut
// as a typed one is (clipScrubbed, cutScrubbed, read's slack), each distinct value counted
// once; a value too short to mask is refused naming its index, never the value.
func TestMaskSecretsMasksBeforeTheCut(t *testing.T) {
	const secret = "srv-9f8e7d6c5b"
	text := strings.Repeat("x", 10) + secret + strings.Repeat("y", 50)
	var w Worker
	if w.scrubSlack() != 0 {
		t.Fatal("slack before any secret")
	}
	res, err := w.maskSecrets(context.Background(), &transport.MaskSecrets{Values: []string{secret, "other-secret", secret}}, policy.AllowAll())
	if err != nil || res.(*transport.MaskSecretsResult).Masking != 2 {
		t.Fatalf("maskSecrets = %+v, %v; want 2 values masked", res, err)
	}
	for n := 11; n < 10+len(secret); n++ {
		if got := w.clipScrubbed(text, n); strings.Contains(got, "srv-") {
			t.Errorf("clipScrubbed(%d) = %q", n, got)
		}
		if got, _ := w.cutScrubbed(text, n); strings.Contains(got, "srv-") {
			t.Errorf("cutScrubbed(%d) = %q", n, got)
		}
	}
	if w.scrubSlack() < len(secret) {
		t.Errorf("read's slack %d is shorter than the secret", w.scrubSlack())
	}
	_, err = w.maskSecrets(context.Background(), &transport.MaskSecrets{Values: []string{"fine-secret", "abc"}}, policy.AllowAll())
	oe := transport.AsOperationError("", err)
	if oe == nil || oe.Code != transport.CodeInvalidRequest || oe.Path != "request.values[1]" || strings.Contains(oe.Message, "abc") {
		t.Fatalf("short value: %v, want invalid_request at request.values[1]", err)
	}
}
