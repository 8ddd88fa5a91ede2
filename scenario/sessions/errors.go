package sessions

import "fmt"

// Error is a session command's refusal or failure: one of the codes above and a sentence
// that says what was wrong and, where it can, what to do. The CLI prints it as
// {"error":{"code","message"}}. The message never holds a secret's value.
type Error struct {
	code    string
	Message string
	// cause and path, when set, are the protocol code and field a refusal came from.
	cause, path string
}

// errorOf is the Error a body describes (a refusal that keeps its cause and path).
func errorOf(b ErrorBody) *Error {
	return &Error{code: b.Code, Message: b.Message, cause: b.Cause, path: b.Path}
}

// Errorf makes an Error with code (one of Codes) and a formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{code: code, Message: fmt.Sprintf(format, args...)}
}

// Code is the error's code.
func (e *Error) Code() string { return e.code }

func (e *Error) Error() string { return e.code + ": " + e.Message }
