package sessions

import (
	"errors"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/transport"
)

// Calls is pure bookkeeping over protocol values (the pages are cmd/fastbrowser's MCP tests,
// against Chromium): a session is exported only to the task that opened it, a tab the file
// cannot name refuses the export naming the call, and past the bound an ended session's
// history goes before an open one's.
func TestCallsOwnershipTabsAndBound(t *testing.T) {
	calls := NewCalls(t.TempDir(), "")
	open := func(task, session string) transport.Owner {
		calls.Record(transport.Owner{Task: task}, &transport.OpenSession{Task: task, AllowedOrigins: []string{site}},
			&transport.OpenSessionResult{Session: session, Task: task, AllowedOrigins: []string{site}}, false)
		return transport.Owner{Session: session, Task: task}
	}
	code := func(err error) transport.Code {
		var oe *transport.OperationError
		if !errors.As(err, &oe) {
			t.Fatalf("%v: want an *OperationError", err)
		}
		return oe.Code
	}

	a := open("mcp-1", "s1")
	calls.Record(a, &transport.Navigate{URL: site + "/form"}, &transport.NavigateResult{Tab: "t-initial", URL: site + "/form"}, true)
	calls.Record(a, &transport.Read{}, &transport.ReadResult{Text: "page text"}, false)
	x, err := calls.Export(a, "")
	if err != nil || x.Operations != 1 || strings.Contains(string(x.File), "page text") {
		t.Fatalf("export: %v, %+v", err, x)
	}
	if _, err := calls.Export(transport.Owner{Session: "s1", Task: "mcp-2"}, ""); code(err) != transport.CodeSessionNotOwned {
		t.Errorf("another task's export: %v; want session_not_owned", err)
	}
	if _, err := calls.Export(transport.Owner{Session: "s9", Task: "mcp-1"}, ""); code(err) != transport.CodeSessionNotFound {
		t.Errorf("an unknown session's export: %v; want session_not_found", err)
	}
	if _, err := calls.Export(a, "no spaces"); code(err) != transport.CodeInvalidRequest {
		t.Errorf("a bad scenario id: %v; want invalid_request", err)
	}

	// A tab listed (never waited for as a popup) has no name in a file.
	calls.Record(a, &transport.SelectTab{Tab: "t-listed"}, &transport.SelectTabResult{}, true)
	if _, err := calls.Export(a, ""); code(err) != transport.CodeInvalidRequest || !strings.Contains(err.Error(), "call 1 (selectTab) names tab t-listed") {
		t.Errorf("export naming an unknown tab: %v", err)
	}

	// The bound: s1 ended, so it goes first when the bound is reached, before s2 (older, open).
	calls.Record(a, &transport.CloseSession{Session: "s1", Task: "mcp-1"}, &transport.CloseSessionResult{}, false)
	b := open("mcp-1", "s2")
	for i := 2; i < budgets.SessionCallHistories+1; i++ {
		open("mcp-1", "more-"+string(rune('a'+i%26))+strings.Repeat("x", i/26))
	}
	if _, err := calls.Export(a, ""); code(err) != transport.CodeSessionNotFound {
		t.Errorf("the ended session past the bound: %v; want session_not_found", err)
	}
	if _, err := calls.Export(b, ""); code(err) != transport.CodeInvalidRequest { // kept: nothing to export yet
		t.Errorf("the open session past the bound: %v; want its history kept (invalid_request: nothing to export)", err)
	}
}
