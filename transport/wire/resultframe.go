package wire

import (
	"strconv"

	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/jsonl"
)

// sendResult writes a result's response frame, the bytes WriteFrame writes for
// transport.ResponseFrame{V: Version, ID: id, Result: <res encoded>, Posture: PostureOK}, with the result
// encoded once, straight into the line: encoding it on its own and then as the frame's raw
// JSON walked it twice (the second time to compact it again), on every answer a worker gives.
// TestResultFrameIsResponseFrame holds the two to the same bytes.
func (f *frameConn) sendResult(id string, res transport.Result) error {
	quoted, err := marshalCompact(id)
	if err != nil {
		return &jsonl.EncodeError{Err: err}
	}
	head := make([]byte, 0, len(resultHead)+len(quoted)+len(resultKey))
	head = append(append(append(head, resultHead...), quoted...), resultKey...)
	return f.w.WriteAround(head, res, resultTail)
}

// The fixed text around a result frame's id and result, in ResponseFrame's field order.
var (
	resultHead = []byte(`{"v":` + strconv.Itoa(transport.Version) + `,"id":`)
	resultKey  = []byte(`,"result":`)
	resultTail = []byte(`,"posture":"` + string(transport.PostureOK) + `"}`)
)
