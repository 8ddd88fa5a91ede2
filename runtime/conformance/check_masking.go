package conformance

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/secrets"
)

var passwordField = transport.Target{Role: "textbox", Name: transport.Match("Password")}

// maskedValue types the run's secret ({"env":…}) into the password field and captures
// evidence: the receipt records its length, never the text; the screenshot is kept with a
// proof that masked the field and left nothing unmasked; and the secret is in no result and
// no stored asset. The runtime scrubs a secret a worker returns to "[secret]", so a receipt
// holding that mask is a worker that put the typed text in it.
func maskedValue(ctx context.Context, e *env) error {
	if _, err := e.navigate(ctx, "/form"); err != nil {
		return err
	}
	act, err := transport.Dispatch(ctx, e.rt, transport.Act{Action: transport.ActType, Target: passwordField, Text: transport.FromEnv(secretEnv)})
	if err != nil {
		return fmt.Errorf("type the secret into Password: %w", err)
	}
	if err := e.secretFree("the act result", act); err != nil {
		return err
	}
	if n := act.Receipt.TypedLength; n == nil || *n != len(e.secret) {
		return fmt.Errorf("the act receipt's typedLength is %s, want %d", lengthOf(n), len(e.secret))
	}
	ev, err := transport.Dispatch(ctx, e.rt, transport.CaptureEvidence{RunID: "conformance", Operation: transport.OpAct})
	if err != nil {
		return fmt.Errorf("captureEvidence: %w", err)
	}
	if err := e.secretFree("the captureEvidence result", ev); err != nil {
		return err
	}
	p := ev.Redaction
	switch {
	case p == nil:
		return fmt.Errorf("captureEvidence reported no redaction proof")
	case !p.Proven || p.Masked < 1 || p.Unmasked != 0:
		return fmt.Errorf("redaction proof %+v: want proven, masked ≥ 1, unmasked 0", *p)
	}
	shot := false
	for _, a := range ev.Artifacts {
		shot = shot || a.Kind == transport.PartScreenshot
		b, err := e.readAsset(a)
		if err != nil {
			return fmt.Errorf("read the %s asset: %w", a.Kind, err)
		}
		for _, form := range []string{e.secret, base64.StdEncoding.EncodeToString([]byte(e.secret))} {
			if bytes.Contains(b, []byte(form)) {
				return fmt.Errorf("the %s asset holds the masked value", a.Kind)
			}
		}
	}
	if !shot {
		return fmt.Errorf("no screenshot was kept though the password field was masked (unavailable: %+v)", ev.Unavailable)
	}
	return nil
}

// secretFree fails when a result holds the secret, or the mask the runtime scrubbed it to.
func (e *env) secretFree(what string, res any) error {
	b, err := json.Marshal(res)
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	switch {
	case strings.Contains(string(b), e.secret):
		return fmt.Errorf("%s holds the typed secret", what)
	case strings.Contains(string(b), secrets.Mask):
		return fmt.Errorf("%s held the typed secret (the runtime scrubbed it to %s): %s", what, secrets.Mask, b)
	}
	return nil
}

func lengthOf(n *int) string {
	if n == nil {
		return "missing"
	}
	return fmt.Sprint(*n)
}

// unprovenMasking: a redaction rule for a field the browser paints above any mask (a modal
// dialog's, on /unmaskable) cannot be proven, so no screenshot is kept and the part is
// reported unavailable, redaction_not_proven.
func unprovenMasking(ctx context.Context, e *env) error {
	if _, err := e.navigate(ctx, "/unmaskable"); err != nil {
		return err
	}
	ev, err := transport.Dispatch(ctx, e.rt, transport.CaptureEvidence{RunID: "conformance", Operation: transport.OpNavigate,
		Redaction: []transport.RedactionRule{{Label: "Account number"}}})
	if err != nil {
		return fmt.Errorf("captureEvidence: %w", err)
	}
	for _, a := range ev.Artifacts {
		if a.Kind == transport.PartScreenshot {
			return fmt.Errorf("a screenshot was kept though its masking could not be proven (proof %+v)", ev.Redaction)
		}
	}
	for _, u := range ev.Unavailable {
		if u.Part == transport.PartScreenshot && u.Code == transport.CodeRedactionNotProven {
			return nil
		}
	}
	return fmt.Errorf("the screenshot is not reported unavailable with %s (unavailable: %+v)", transport.CodeRedactionNotProven, ev.Unavailable)
}
