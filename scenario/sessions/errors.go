package sessions

import (
	"errors"
	"fmt"
)

// Error is a session command's refusal or failure: one of the codes above and a sentence
// that says what was wrong and, where it can, what to do. The CLI prints it as
// {"error":{"code","message"}}. The message never holds a secret's value.
type Error struct {
	code    string
	Message string
}

// Errorf makes an Error with code (one of Codes) and a formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{code: code, Message: fmt.Sprintf(format, args...)}
}

// Code is the error's code.
func (e *Error) Code() string { return e.code }

func (e *Error) Error() string { return e.code + ": " + e.Message }

// CodeOf is err's code: an *Error's own, else CodeFailed.
func CodeOf(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.code
	}
	return CodeFailed
}
