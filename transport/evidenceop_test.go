package transport

import (
	"errors"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestCaptureEvidenceOperationAllowlist: captureEvidence's operation is one of the capture
// labels (seed 002): every published operation but the session's close, closeTab included,
// and the protocol's own additions; anything else (close, a host operation, a free label) is
// invalid_request at request.operation, the message listing what is expected.
func TestCaptureEvidenceOperationAllowlist(t *testing.T) {
	published := []string{OpObserve, OpAct, OpRead, OpAssert, OpNavigate, OpReload, OpListTabs, OpSelectTab,
		OpWaitPopup, OpCloseTab, OpCaptureEvidence, OpNarrowOriginPolicy}
	for _, name := range append(published, OpScreenshot, OpDownload, OpTask, OpExtract) {
		if err := Validate(&CaptureEvidence{RunID: "r1", Operation: name}); err != nil {
			t.Errorf("operation %q refused: %v", name, err)
		}
	}
	list := EvidenceOperations()
	for _, bad := range []string{OpClose, OpOpenSession, OpCloseSession, OpEndTask, OpBatch, "navigate-3", "look", "Close", ""} {
		err := Validate(&CaptureEvidence{RunID: "r1", Operation: bad})
		var oe *OperationError
		if !errors.As(err, &oe) || oe.Code != CodeInvalidRequest || oe.Path != "request.operation" || oe.MutationState != NotAttempted {
			t.Errorf("operation %q: %v, want invalid_request at request.operation", bad, err)
			continue
		}
		if want := "expected the operation the evidence is for, one of " + strings.Join(list, ", "); oe.Message != want {
			t.Errorf("operation %q: message %q, want %q", bad, oe.Message, want)
		}
	}
	if slices.Contains(list, OpClose) || !slices.Contains(list, OpCloseTab) {
		t.Errorf("EvidenceOperations() = %v: want closeTab and not close", list)
	}
	list[0] = "mutated" // a copy: the caller cannot change the allowlist
	if EvidenceOperations()[0] != OpObserve {
		t.Errorf("EvidenceOperations() shares its backing array")
	}
}

// TestProtocolDocListsEvidenceOperations: docs/protocol.md lists captureEvidence's
// operations exactly as EvidenceOperations has them.
func TestProtocolDocListsEvidenceOperations(t *testing.T) {
	doc, err := os.ReadFile("../docs/protocol.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("`operation` is what the evidence is for, one of ((?:`[a-zA-Z]+`,?\\s*)+)").FindSubmatch(doc)
	if m == nil {
		t.Fatal("docs/protocol.md does not list captureEvidence's operations")
	}
	var documented []string
	for _, n := range regexp.MustCompile("`([a-zA-Z]+)`").FindAllSubmatch(m[1], -1) {
		documented = append(documented, string(n[1]))
	}
	if !slices.Equal(documented, EvidenceOperations()) {
		t.Errorf("docs/protocol.md lists %v; EvidenceOperations is %v", documented, EvidenceOperations())
	}
}

// TestCaptureEvidenceParts: parts names some of the four parts, each once; an unknown or
// repeated one is invalid_request at its index. None (or none given) wants every part.
func TestCaptureEvidenceParts(t *testing.T) {
	for _, ok := range [][]string{nil, {PartConsole}, {PartNetwork, PartConsole}, EvidenceParts} {
		if err := Validate(&CaptureEvidence{RunID: "r1", Operation: OpAct, Parts: ok}); err != nil {
			t.Errorf("parts %v refused: %v", ok, err)
		}
	}
	for _, c := range []struct {
		parts []string
		path  string
	}{
		{[]string{"video"}, "request.parts[0]"},
		{[]string{PartConsole, PartConsole}, "request.parts[1]"},
		{[]string{PartOutline, "Screenshot"}, "request.parts[1]"},
	} {
		var oe *OperationError
		err := Validate(&CaptureEvidence{RunID: "r1", Operation: OpAct, Parts: c.parts})
		if !errors.As(err, &oe) || oe.Code != CodeInvalidRequest || oe.Path != c.path || !strings.Contains(oe.Message, "console, network, screenshot, outline") {
			t.Errorf("parts %v: %v, want invalid_request at %s", c.parts, err, c.path)
		}
	}
	all, some := &CaptureEvidence{}, &CaptureEvidence{Parts: []string{PartNetwork}}
	if !all.Wants(PartScreenshot) || some.Wants(PartScreenshot) || !some.Wants(PartNetwork) {
		t.Error("Wants does not follow parts")
	}
}
