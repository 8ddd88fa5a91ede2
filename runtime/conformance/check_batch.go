package conformance

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/fastbrowser/fastbrowser/scenarios/fixture"
	"github.com/fastbrowser/fastbrowser/transport"
)

const (
	handoffTask = "conformance-handoff"
	narrowTask  = "conformance-narrow"
)

// handoffEndsBatch: in a session whose handoff classes are ["login"], a batch that reaches
// an ordinary page (/about, classed normal) runs on, and one that reaches a sign-in page
// (/login, classed login) ends there with posture handoff_required; the actions after it
// are skipped, never run (the Username the batch would have typed is not in the field).
func handoffEndsBatch(ctx context.Context, e *env) error {
	s, err := e.openSession(ctx, handoffTask, transport.OpenSession{HandoffClasses: []string{transport.PageLogin}})
	if err != nil {
		return fmt.Errorf("open a session with handoffClasses [login]: %w", err)
	}
	defer e.endTask(ctx, handoffTask)
	normal, err := batch(ctx, s, navigateAction(e.fixture+"/about"), pageTextAction())
	if err != nil || normal.Posture != transport.PostureOK || normal.Actions[0].PageClass != transport.PageNormal {
		return fmt.Errorf("a batch on /about: %s, page class %q; want ok and %q", batchOutcome(normal, err), pageClassOf(normal), transport.PageNormal)
	}
	const typed = "never-typed"
	b, err := batch(ctx, s, navigateAction(e.fixture+"/login"),
		transport.BatchAction{Action: transport.VerbType, Target: &usernameField, Text: transport.Literal(typed)},
		pageTextAction())
	switch {
	case err != nil:
		return fmt.Errorf("a batch reaching /login: %w", err)
	case b.Posture != transport.PostureHandoffRequired || b.Code != transport.CodeHandoffRequired:
		return fmt.Errorf("a batch reaching /login (classed %q): %s; want posture and code %s", pageClassOf(b), batchOutcome(b, nil), transport.CodeHandoffRequired)
	case b.Actions[0].PageClass != transport.PageLogin || b.Actions[0].Posture != transport.PostureHandoffRequired:
		return fmt.Errorf("the navigate to /login: page class %q, posture %s; want %q and %s", b.Actions[0].PageClass, b.Actions[0].Posture, transport.PageLogin, transport.PostureHandoffRequired)
	case b.Actions[1].Status != transport.ActionSkipped || b.Actions[2].Status != transport.ActionSkipped:
		return fmt.Errorf("the actions after the handoff page ran: %s", batchOutcome(b, nil))
	}
	if _, err := transport.Dispatch(ctx, s, transport.Assert{Kind: transport.AssertValue, Target: &usernameField, Value: typed, Wait: transport.WaitNone}); err == nil {
		return fmt.Errorf("the skipped type ran: Username holds its text")
	}
	return nil
}

func pageClassOf(b transport.BatchResult) string {
	if len(b.Actions) == 0 {
		return ""
	}
	return b.Actions[0].PageClass
}

// egressPostures: a batch's navigation off-origin and an allowed page's redirect off-origin
// each end the batch with posture egress_denied, the action after it skipped, and the
// canary never hears from the browser.
func egressPostures(ctx context.Context, e *env) error {
	for _, c := range []struct{ what, url string }{
		{"a navigate off-origin", e.canaryURL + "/canary/batch-off-origin"},
		{"a redirect off-origin", fixture.EgressURL(e.fixture, "redirect", e.canaryURL)},
	} {
		b, err := batch(ctx, e.rt, navigateAction(e.fixture+"/about"), navigateAction(c.url), pageTextAction())
		switch {
		case err != nil:
			return fmt.Errorf("a batch with %s: %w", c.what, err)
		case b.Posture != transport.PostureEgressDenied || !deniedCode(b.Code):
			return fmt.Errorf("a batch with %s: %s; want posture %s", c.what, batchOutcome(b, nil), transport.PostureEgressDenied)
		case b.Actions[0].Status != transport.ActionOK || b.Actions[1].Posture != transport.PostureEgressDenied || b.Actions[2].Status != transport.ActionSkipped:
			return fmt.Errorf("a batch with %s: %s; want ok, egress_denied, skipped", c.what, batchOutcome(b, nil))
		}
	}
	return e.canarySilent()
}

func deniedCode(c transport.Code) bool {
	return c == transport.CodeEgressDenied || c == transport.CodeOriginDenied
}

// bindingNarrowing: a task's origins must narrow the binding, never widen it, and deny by
// default: an empty list, an invalid entry, an origin outside the binding and "*" (under a
// binding that is not "*") are refused naming the entry; the fixture alone is accepted. In
// that session an origin the binding allows but the session was not given is denied, by a
// direct navigation and through a redirect, and its server never hears from the browser.
func bindingNarrowing(ctx context.Context, e *env) error {
	refusals := []struct {
		what    string
		origins []string
	}{
		{"an empty list", []string{}},
		{"an invalid entry", []string{"ftp://" + strings.TrimPrefix(e.fixture, "http://")}},
		{"an origin outside the binding", []string{e.canaryURL}},
		{"the fixture and an origin outside the binding", []string{e.fixture, e.canaryURL}},
	}
	if !e.host.BindingIsAny() {
		refusals = append(refusals, struct {
			what    string
			origins []string
		}{"\"*\"", []string{"*"}})
	}
	for _, r := range refusals {
		s, err := e.openSession(ctx, narrowTask, transport.OpenSession{AllowedOrigins: r.origins})
		if codeOf(err) != transport.CodeInvalidRequest {
			e.endTask(ctx, narrowTask)
			return fmt.Errorf("openSession with %s %v: got %s, want %s", r.what, r.origins, sessionOutcome(s, err), transport.CodeInvalidRequest)
		}
	}
	s, err := e.openSession(ctx, narrowTask, transport.OpenSession{AllowedOrigins: []string{e.fixture}})
	if err != nil {
		return fmt.Errorf("openSession with the fixture's origin alone: %w", err)
	}
	defer e.endTask(ctx, narrowTask)
	if e.inside == nil {
		return nil // the caller's binding: no origin of ours lies inside it and outside the session
	}
	for _, c := range []struct{ what, url string }{
		{"a navigate", e.insideURL + "/canary/narrowed"},
		{"a redirect", fixture.EgressURL(e.fixture, "redirect", e.insideURL)},
	} {
		b, err := batch(ctx, s, navigateAction(c.url))
		if err != nil || b.Posture != transport.PostureEgressDenied {
			return fmt.Errorf("%s to an origin inside the binding but outside the session: %s; want %s", c.what, batchOutcome(b, err), transport.PostureEgressDenied)
		}
	}
	if n := e.inside.Connections(); n != 0 {
		return fmt.Errorf("the origin inside the binding but outside the session saw %d connection(s) (%v): the session was widened", n, e.inside.Paths())
	}
	return nil
}

func sessionOutcome(s owned, err error) string {
	if err == nil {
		return "session " + s.id
	}
	return "error " + err.Error()
}

// evidenceWithoutBytes: a batch's screenshot returns the asset's ref (its path in the store)
// and SHA-256, never its bytes; the asset read back is a PNG of that length and hash.
func evidenceWithoutBytes(ctx context.Context, e *env) error {
	b, err := batch(ctx, e.rt, navigateAction(e.fixture+"/about"), transport.BatchAction{Action: transport.VerbScreenshot})
	if err != nil || b.Posture != transport.PostureOK {
		return fmt.Errorf("a batch with a screenshot: %s", batchOutcome(b, err))
	}
	raw := []byte(b.Actions[1].Result)
	var ev transport.CaptureEvidenceResult
	if err := resultOf(b.Actions[1], &ev); err != nil {
		return err
	}
	var loose map[string]json.RawMessage
	_ = json.Unmarshal(raw, &loose)
	if _, ok := loose["payloads"]; ok || bytes.Contains(raw, []byte(pngBase64)) {
		return fmt.Errorf("the screenshot's result carries image bytes (%d bytes of JSON)", len(raw))
	}
	for _, a := range ev.Artifacts {
		if a.Kind != transport.PartScreenshot {
			continue
		}
		data, err := e.readAsset(a)
		if err != nil {
			return fmt.Errorf("read the screenshot asset %s back: %w", a.Path, err)
		}
		sum := sha256.Sum256(data)
		switch {
		case a.SHA256 != hex.EncodeToString(sum[:]):
			return fmt.Errorf("the screenshot asset %s does not hash to its sha256 %s", a.Path, a.SHA256)
		case int64(len(data)) != a.Bytes || !bytes.HasPrefix(data, pngMagic):
			return fmt.Errorf("the screenshot asset %s is not a PNG of %d bytes", a.Path, a.Bytes)
		}
		return nil
	}
	return fmt.Errorf("the screenshot action kept no screenshot (unavailable: %+v)", ev.Unavailable)
}

var pngMagic = []byte("\x89PNG\r\n\x1a\n")

// pngBase64 is how every PNG's base64 begins.
const pngBase64 = "iVBORw0KGgo"
