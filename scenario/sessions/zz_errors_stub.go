package sessions

import "fmt"

// TEMPORARY until i12-export's errors.go lands.
type Error struct{ code, msg string }

func Errorf(code, format string, args ...any) *Error {
	return &Error{code, fmt.Sprintf(format, args...)}
}
func (e *Error) Error() string { return e.msg }
func (e *Error) Code() string  { return e.code }
