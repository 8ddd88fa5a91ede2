package transport

import (
	"encoding/json"
	"os"
	"unicode/utf8"

	"github.com/fastbrowser/fastbrowser/transport/names"
	"github.com/fastbrowser/fastbrowser/transport/strictjson"
)

// Text is what `act type` types: a literal, or {"env":"NAME"} — a secret read from the
// environment of the process that executes the request. A Text never prints its value
// (String and GoString are redacted), and results carry only its length.
type Text struct {
	literal string
	env     string
	secret  bool
}

// Literal is a Text typed as given.
func Literal(s string) *Text { return &Text{literal: s} }

// SecretLiteral is a Text typed as given whose value holds a secret (a task's text with an
// {"env"} variable put in): the runtime masks it like a resolved env reference.
func SecretLiteral(s string) *Text { return &Text{literal: s, secret: true} }

// FromEnv is a Text read from the environment variable name when resolved.
func FromEnv(name string) *Text { return &Text{env: name, secret: true} }

// UnmarshalStrictJSON accepts exactly `"literal"` or `{"env":"NAME"}`.
func (t *Text) UnmarshalStrictJSON(raw []byte, path string) error {
	if len(raw) > 0 && raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return &strictjson.Error{Path: path, Expected: "string", Message: "expected a string or {\"env\": NAME}"}
		}
		*t = Text{literal: s}
		return nil
	}
	var ref struct {
		Env string `json:"env" required:"true"`
	}
	if err := strictjson.DecodeAt(raw, &ref, path); err != nil {
		return err
	}
	if !names.ValidEnvName(ref.Env) {
		return &strictjson.Error{Path: path + ".env", Expected: "an environment variable name", Message: "expected an environment variable name"}
	}
	*t = Text{env: ref.Env, secret: true}
	return nil
}

// UnmarshalJSON mirrors UnmarshalStrictJSON for callers that already checked the bytes.
func (t *Text) UnmarshalJSON(raw []byte) error { return t.UnmarshalStrictJSON(raw, "") }

// MarshalJSON writes the form it was given: a resolved secret goes to the worker as a
// literal (the runtime resolves env references before dispatch).
func (t Text) MarshalJSON() ([]byte, error) {
	if t.env != "" {
		return json.Marshal(map[string]string{"env": t.env})
	}
	return json.Marshal(t.literal)
}

func (t Text) String() string   { return "[text]" }
func (t Text) GoString() string { return "transport.Text{[redacted]}" }

// EnvName is the environment variable a reference names ("" for a literal).
func (t *Text) EnvName() string { return t.env }

// Secret reports whether the text came from the environment.
func (t *Text) Secret() bool { return t.secret }

// Resolve returns a literal Text, reading an env reference with lookup (nil: os.LookupEnv).
// It keeps the secret mark. A missing variable is refused without naming its value.
func (t *Text) Resolve(op string, lookup func(string) (string, bool)) (*Text, error) {
	if t.env == "" {
		return t, nil
	}
	if lookup == nil {
		lookup = os.LookupEnv
	}
	v, ok := lookup(t.env)
	if !ok {
		return nil, Invalid(op, "request.text.env", "environment variable %s is not set", t.env)
	}
	return &Text{literal: v, secret: true}, nil
}

// Value is the text to type. Only the worker's type action calls it.
func (t *Text) Value() string { return t.literal }

// Len is the typed length in characters, the only thing a receipt records.
func (t *Text) Len() int { return utf8.RuneCountInString(t.literal) }
