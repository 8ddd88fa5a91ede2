package wire

import (
	"bytes"
	"errors"
	"testing"

	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/jsonl"
)

// TestResultFrameIsResponseFrame holds sendResult to the bytes WriteFrame gives for the
// responseFrame it stands for (runtime/wiretranscript_test.go pins those on the wire).
func TestResultFrameIsResponseFrame(t *testing.T) {
	results := []transport.Result{
		&transport.ReadResult{Tab: "T1", URL: "https://a.test/?q=<1>&r=2", Title: "\"quoted\" \\ é \u2028", Text: "line\nnext\ttab \x01", DocumentID: "doc-1"},
		&transport.CloseResult{Closed: true},
		&transport.ListTabsResult{Tabs: []transport.TabInfo{{Tab: "T", Title: "x"}}, Selected: "T"},
	}
	for _, id := range []string{"1", "18446744073709551615", `a"b\c`, "<&>", "é\u2028"} {
		for _, res := range results {
			var want, got bytes.Buffer
			raw, err := marshalCompact(res)
			if err != nil {
				t.Fatal(err)
			}
			if err := jsonl.NewWriter(&want, 0).WriteFrame(transport.ResponseFrame{V: transport.Version, ID: id, Result: raw, Posture: transport.PostureOK}); err != nil {
				t.Fatal(err)
			}
			if err := newFrameConn(nil, &got).sendResult(id, res); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), want.Bytes()) {
				t.Errorf("id %q, %T:\n got %s\nwant %s", id, res, got.Bytes(), want.Bytes())
			}
		}
	}
}

// unencodable is a result encoding/json refuses.
type unencodable struct{ transport.ReadResult }

func (unencodable) MarshalJSON() ([]byte, error) { return nil, errors.New("no") }

func TestResultFrameThatCannotBeEncodedWritesNothing(t *testing.T) {
	var out bytes.Buffer
	err := newFrameConn(nil, &out).sendResult("1", &unencodable{})
	var encErr *jsonl.EncodeError
	if !errors.As(err, &encErr) || out.Len() != 0 {
		t.Fatalf("err %v, wrote %q; want an *EncodeError and nothing written", err, out.Bytes())
	}
}
