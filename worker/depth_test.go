package worker_test

import (
	"strings"
	"testing"
)

// TestWorkerAnswersDeepLine: `fastbrowser worker` answers a 16 MB line of 8·10^6 nested
// arrays with the nesting limit named (it once died of a stack overflow) and keeps serving.
func TestWorkerAnswersDeepLine(t *testing.T) {
	w := startRawWorker(t)
	w.next(t) // ready
	const levels = 8_000_000
	w.write(t, `{"v":1,"id":"d","op":"read","request":`+strings.Repeat("[", levels)+strings.Repeat("]", levels)+"}\n")
	if f := w.next(t); f.ID != "" || f.Error == nil || f.Error.Code != "protocol_error" || !strings.Contains(f.Error.Message, "512 levels") {
		t.Fatalf("deep line: %+v %+v", f, f.Error)
	}
	w.write(t, `{"v":1,"id":"l","op":"listTabs"}`+"\n")
	if f := w.next(t); f.ID != "l" || f.Error != nil {
		t.Fatalf("listTabs after the deep line: %+v %+v", f, f.Error)
	}
}
