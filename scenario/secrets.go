package scenario

import (
	"fmt"
	"unicode/utf8"

	"github.com/fastbrowser/fastbrowser/runtime/secrets"
	"github.com/fastbrowser/fastbrowser/transport"
)

// CheckSecrets refuses, before anything starts, a scenario whose {"env":…} text is unset or
// too short to be masked. It never says what a value is.
func CheckSecrets(l *Loaded, lookup func(string) (string, bool)) error {
	for i, op := range l.Operations {
		var text *transport.Text
		path := fmt.Sprintf("operations[%d]", i)
		switch {
		case op.step != nil:
			text, path = op.step.Text, path+".step.text"
		default:
			if a, ok := op.req.(*actReq); ok {
				text, path = a.Text, path+".request.text"
			}
		}
		if text == nil || text.EnvName() == "" {
			continue
		}
		v, ok := lookup(text.EnvName())
		switch {
		case !ok:
			return &ValidationError{File: l.Path, Path: path + ".env", Code: transport.CodeInvalidRequest,
				Message: "environment variable " + text.EnvName() + " is not set"}
		case utf8.RuneCountInString(v) < secrets.MinLen:
			return &ValidationError{File: l.Path, Path: path + ".env", Code: transport.CodeInvalidRequest,
				Message: fmt.Sprintf("the value of %s is shorter than %d characters and cannot be masked in outputs", text.EnvName(), secrets.MinLen)}
		}
	}
	return nil
}
