package transport

import (
	"io"

	"github.com/fastbrowser/fastbrowser/transport/jsonl"
)

// RefuseStart is what a server that cannot start writes in place of its ready frame: one
// error frame without an id (no request was read yet), {"v":1,"error":{…},"posture":"failed"},
// so a parent waiting for the ready frame learns why it will never come instead of seeing
// stdout end. err is carried as its *OperationError (internal when it is none).
func RefuseStart(out io.Writer, err error) error {
	oe := AsOperationError("", err)
	return jsonl.NewWriter(out, jsonl.DefaultMaxLine).WriteFrame(errorFrame{V: Version, Error: wireError{OperationError: oe}, Posture: PostureOf(oe)})
}
