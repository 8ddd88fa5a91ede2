package scenario

import (
	"encoding/json"
	"os"

	"github.com/fastbrowser/fastbrowser/transport/names"
	"github.com/fastbrowser/fastbrowser/transport/strictjson"
)

// EnvValue is `"literal"` or `{"env":"HOST_NAME"}` (a value taken from the runner's
// environment when the command starts; never interpolated into anything).
type EnvValue struct {
	Literal string
	FromEnv string
}

// UnmarshalStrictJSON accepts exactly the two forms.
func (v *EnvValue) UnmarshalStrictJSON(raw []byte, path string) error {
	if len(raw) > 0 && raw[0] == '"' {
		return json.Unmarshal(raw, &v.Literal)
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
	v.FromEnv = ref.Env
	return nil
}

// UnmarshalJSON is used only after the strict check; it mirrors UnmarshalStrictJSON.
func (v *EnvValue) UnmarshalJSON(raw []byte) error {
	if len(raw) > 0 && raw[0] == '"' {
		return json.Unmarshal(raw, &v.Literal)
	}
	var ref struct {
		Env string `json:"env"`
	}
	if err := json.Unmarshal(raw, &ref); err != nil {
		return err
	}
	v.FromEnv = ref.Env
	return nil
}

// MarshalJSON writes the file form back (schema and export).
func (v EnvValue) MarshalJSON() ([]byte, error) {
	if v.FromEnv != "" {
		return json.Marshal(map[string]string{"env": v.FromEnv})
	}
	return json.Marshal(v.Literal)
}

// Resolve returns the value for the child's environment.
func (v EnvValue) Resolve(lookup func(string) (string, bool)) (string, bool) {
	if v.FromEnv == "" {
		return v.Literal, true
	}
	if lookup == nil {
		lookup = os.LookupEnv
	}
	return lookup(v.FromEnv)
}
