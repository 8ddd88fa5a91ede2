package scenario

import (
	"errors"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/transport"
)

// Live checks each operation as Load checks a file's, against the operations kept so far,
// and reports paths relative to the one operation.
func TestLiveCheck(t *testing.T) {
	l := NewLive("t1")
	op, err := l.Check([]byte(`{"id":"tabs","op":"listTabs"}`), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	l.Keep(op, &transport.ListTabsResult{Selected: "t1"})

	cases := []struct {
		name, raw, path, msg string
		code                 transport.Code
	}{
		{"unknown op", `{"op":"fly"}`, "op", `unknown op "fly"`, transport.CodeInvalidRequest},
		{"unknown field", `{"op":"read","bogus":1}`, "bogus", "unknown field", transport.CodeInvalidRequest},
		{"relative url without a base", `{"op":"navigate","request":{"url":"/x"}}`, "request.url", "needs fixture.baseUrl", transport.CodeInvalidRequest},
		{"duplicate id", `{"id":"tabs","op":"read"}`, "id", `already used`, transport.CodeInvalidRequest},
		{"ref to a missing id", `{"op":"read","request":{"tab":{"source":"operation","operation":{"id":"nope"},"result":"listedTab"}}}`, "request.tab.operation.id", "no operation has id", transport.CodeInvalidRequest},
		{"index refs refused", `{"op":"read","request":{"tab":{"source":"operation","operation":{"index":0},"result":"listedTab"}}}`, "request.tab.operation.index", `by its "id"`, transport.CodeInvalidRequest},
		{"timeout over its ceiling", `{"op":"read","timeoutMs":999999}`, "timeoutMs", "ceiling", transport.CodeBudgetExceeded},
		{"bad when", `{"op":"read","when":{"kind":"sparkles","value":"x"}}`, "when.kind", "", transport.CodeInvalidRequest},
		{"include", `{"include":"x.json"}`, "include", "not includes", transport.CodeInvalidRequest},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := l.Check([]byte(c.raw), t.TempDir())
			var ve *ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("got %v, want a ValidationError", err)
			}
			if ve.Path != c.path || !strings.Contains(ve.Message, c.msg) || ve.Code != c.code {
				t.Fatalf("got %s %q (%s), want %s containing %q (%s)", ve.Path, ve.Message, ve.Code, c.path, c.msg, c.code)
			}
		})
	}
	// A reference by id to a kept operation is fine.
	if _, err := l.Check([]byte(`{"op":"read","request":{"tab":{"source":"operation","operation":{"id":"tabs"},"result":"listedTab"}}}`), t.TempDir()); err != nil {
		t.Fatal(err)
	}
	if l.Kept() != 1 {
		t.Fatalf("Check kept something: %d kept", l.Kept())
	}
}
