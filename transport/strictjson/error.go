package strictjson

// Error is every refusal Decode and DecodeAt return.
type Error struct {
	// Path is the JSON path of the offending value: "" for the root,
	// "operations[1].request.url", `env["two words"]`. Keys appear as written in the input.
	Path string
	// Expected says what was expected there, e.g. "string", "integer", "object",
	// "one of the fields: url, tab", "a value".
	Expected string
	// Message is one short sentence, e.g. `unknown field "URL"`.
	Message string

	// cause is the error a type's own UnmarshalJSON or UnmarshalText returned. It is kept
	// out of Message because such errors often quote the raw input, which may be secret.
	cause error
}

func (e *Error) Error() string {
	if e.Path == "" {
		return "(root): " + e.Message
	}
	return e.Path + ": " + e.Message
}

// Unwrap returns the error a type's own unmarshal method returned, if that is why the
// value was refused.
func (e *Error) Unwrap() error { return e.cause }
