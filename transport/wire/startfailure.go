package wire

import (
	"io"
)

// RefuseStart is what a server that cannot start writes in place of its ready frame: one
// error frame without an id (no request was read yet), {"v":1,"error":{…},"posture":"failed"},
// so a parent waiting for the ready frame learns why it will never come instead of seeing
// stdout end. err is carried as its *OperationError (internal when it is none).
func RefuseStart(out io.Writer, err error) error {
	return newFrameConn(nil, out).sendFailure("", "", err)
}
