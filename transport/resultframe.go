package transport

import (
	"strconv"

	"github.com/fastbrowser/fastbrowser/transport/jsonl"
)

// writeResult writes a result's response frame, the bytes WriteFrame writes for
// responseFrame{V: Version, ID: id, Result: <res encoded>, Posture: PostureOK}, with the result
// encoded once, straight into the line: encoding it on its own and then as the frame's raw
// JSON walked it twice (the second time to compact it again), on every answer a worker gives.
// TestResultFrameIsResponseFrame holds the two to the same bytes.
func writeResult(w *jsonl.Writer, id string, res Result) error {
	quoted, err := marshalCompact(id)
	if err != nil {
		return &jsonl.EncodeError{Err: err}
	}
	head := make([]byte, 0, len(resultHead)+len(quoted)+len(resultKey))
	head = append(append(append(head, resultHead...), quoted...), resultKey...)
	return w.WriteAround(head, res, resultTail)
}

// The fixed text around a result frame's id and result, in responseFrame's field order.
var (
	resultHead = []byte(`{"v":` + strconv.Itoa(Version) + `,"id":`)
	resultKey  = []byte(`,"result":`)
	resultTail = []byte(`,"posture":"` + string(PostureOK) + `"}`)
)
