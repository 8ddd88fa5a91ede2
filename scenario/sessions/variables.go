package sessions

import (
	"bytes"
	"crypto/rand"
	"encoding/json"
	"maps"
	"slices"
	"strings"

	"github.com/fastbrowser/fastbrowser/scenario"
	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/names"
	"github.com/fastbrowser/fastbrowser/transport/textclip"
)

// Variables (docs/sessions.md "Variables"): a do's operation may carry
// "variables": {"user": "alice", "password": {"env": "PORTAL_PASSWORD"}}, whose values its
// act words and typed text name as %user% and %password%.
//
//   - An {"env"} value is read from the do command's environment, on that command and on
//     every later one, which then require it (the session remembers the variable's source,
//     never its value), and is a secret of the session from then on: masked in everything
//     it reports, never shown to a model (the model types its placeholder).
//   - A literal serves its own command only and is not masked. The history keeps it only
//     where an export needs it: as the default of the scenario variable the export makes
//     of it ({"var":"user"}), as a typed literal always was kept.
//   - No value is kept in the session's state but the salted digest of one an act's
//     actions never used (the export's replayIf).

// variable is one variable of a do: a literal, or the environment variable holding a
// secret.
type variable struct {
	literal string
	env     string
}

// variables are a do's variables by name.
type variables map[string]variable

// splitVariables takes "variables" off an operation read from stdin: the operation without
// it, and the variables it gave.
func splitVariables(raw json.RawMessage) (json.RawMessage, variables, error) {
	var top map[string]json.RawMessage
	if json.Unmarshal(raw, &top) != nil || top == nil {
		return raw, nil, nil // normalize says what is wrong with it
	}
	given, ok := top["variables"]
	if !ok {
		return raw, nil, nil
	}
	if _, isOp := top["op"]; isOp {
		// A scenario-file act with words has variables of its own (a literal or {"env"}):
		// they are the file's, passed through as written.
		return raw, nil, nil
	}
	var byName map[string]json.RawMessage
	if json.Unmarshal(given, &byName) != nil || byName == nil {
		return nil, nil, Errorf(CodeInvalidInput, `variables: expected an object of NAME: "value" or NAME: {"env": "ENV_NAME"}`)
	}
	out := variables{}
	for _, name := range slices.Sorted(maps.Keys(byName)) {
		path := "variables." + textclip.Clip(name, 40)
		if !scenario.ValidVarName(name) {
			return nil, nil, Errorf(CodeInvalidInput, "%s: expected a variable name: a letter or _, then up to 63 letters, digits or _", path)
		}
		v := byName[name]
		var lit string
		if json.Unmarshal(v, &lit) == nil {
			out[name] = variable{literal: lit}
			continue
		}
		var ref map[string]string
		if json.Unmarshal(v, &ref) != nil || len(ref) != 1 || !names.ValidEnvName(ref["env"]) {
			return nil, nil, Errorf(CodeInvalidInput, `%s: expected a string or {"env": "ENV_NAME"}`, path)
		}
		out[name] = variable{env: ref["env"]}
	}
	delete(top, "variables")
	b, err := json.Marshal(top)
	return b, out, err
}

// sources is how the history keeps a do's variables: name → the environment variable an
// {"env"} one came from, "" for a literal (never the value).
func (vs variables) sources() map[string]string {
	if len(vs) == 0 {
		return nil
	}
	out := map[string]string{}
	for name, v := range vs {
		out[name] = v.env
	}
	return out
}

// named are the variables of vs that text names as %name%.
func (vs variables) named(text string) variables {
	out := variables{}
	_, used := transport.ExpandPlaceholders(text, func(n string) (string, bool) {
		_, ok := vs[n]
		return "", ok
	})
	for _, n := range used {
		out[n] = vs[n]
	}
	return out
}

// taskForm is the variables as a task request takes them: a literal, or {"env": NAME}.
func (vs variables) taskForm() map[string]any {
	out := map[string]any{}
	for name, v := range vs {
		if v.env != "" {
			out[name] = map[string]string{"env": v.env}
		} else {
			out[name] = v.literal
		}
	}
	return out
}

// exportForm is the variables as an exported act with words keeps them: {"env": NAME}, or
// {"var": name} for a literal, whose value becomes the file's variable of that name
// (defaults gets it).
func (vs variables) exportForm(defaults map[string]string) map[string]any {
	out := map[string]any{}
	for name, v := range vs {
		if v.env != "" {
			out[name] = map[string]string{"env": v.env}
			continue
		}
		out[name] = map[string]string{"var": name}
		defaults[name] = v.literal
	}
	return out
}

// value is a variable's value for this do (env values from what the do command sent).
func (v variable) value(env map[string]string) string {
	if v.env != "" {
		return env[v.env]
	}
	return v.literal
}

// typedText puts a do's variables into the text an act types (request.text of a normalized
// act entry). A text that is exactly one placeholder becomes that variable's value source:
// {"env": NAME} for a secret, the literal for a literal, whose export is {"var": name}
// (textVar names it). A placeholder inside other text is replaced by a literal's value; a
// secret's placeholder there is refused (a secret is typed whole, from the environment).
func typedText(entry json.RawMessage, vs variables) (out json.RawMessage, textVar string, err error) {
	if len(vs) == 0 {
		return entry, "", nil
	}
	var e map[string]json.RawMessage
	if json.Unmarshal(entry, &e) != nil {
		return entry, "", nil
	}
	var req map[string]json.RawMessage
	if json.Unmarshal(e["request"], &req) != nil {
		return entry, "", nil
	}
	var text string
	if json.Unmarshal(req["text"], &text) != nil || !strings.Contains(text, "%") {
		return entry, "", nil
	}
	var value any
	if name, ok := wholePlaceholder(text); ok && hasName(vs, name) {
		v := vs[name]
		value, textVar = v.literal, name
		if v.env != "" {
			value, textVar = map[string]string{"env": v.env}, ""
		}
	} else {
		var secret string
		expanded, _ := transport.ExpandPlaceholders(text, func(n string) (string, bool) {
			v, ok := vs[n]
			if ok && v.env != "" {
				secret = n
			}
			return v.literal, ok
		})
		if secret != "" {
			return nil, "", Errorf(CodeInvalidInput, "request.text: %%%s%% is a secret ({\"env\"}) variable inside other text; a secret is typed whole: give the text as %%%s%% alone", secret, secret)
		}
		value = expanded
	}
	req["text"], err = json.Marshal(value)
	if err != nil {
		return nil, "", err
	}
	if e["request"], err = json.Marshal(req); err != nil {
		return nil, "", err
	}
	out, err = json.Marshal(e)
	return out, textVar, err
}

func hasName(vs variables, name string) bool { _, ok := vs[name]; return ok }

// wholePlaceholder: s is exactly %name%.
func wholePlaceholder(s string) (string, bool) {
	if len(s) < 3 || s[0] != '%' || s[len(s)-1] != '%' {
		return "", false
	}
	name := s[1 : len(s)-1]
	return name, scenario.ValidVarName(name)
}

// textAsVar rewrites an exported act's request.text to {"var": name}: the export of a
// literal variable typed whole.
func textAsVar(export json.RawMessage, name string) json.RawMessage {
	var e map[string]any
	dec := json.NewDecoder(bytes.NewReader(export))
	dec.UseNumber()
	if dec.Decode(&e) != nil {
		return export
	}
	req, ok := e["request"].(map[string]any)
	if !ok {
		return export
	}
	req["text"] = map[string]string{"var": name}
	out, err := json.Marshal(e)
	if err != nil {
		return export
	}
	return out
}

// replayIf is the digest of each variable the words name whose value the recorded action
// never used: the recording is replayed only while it has that value.
func replayIf(named variables, used []string, env map[string]string) []scenario.ReplayCondition {
	var out []scenario.ReplayCondition
	for _, name := range slices.Sorted(maps.Keys(named)) {
		if slices.Contains(used, name) {
			continue
		}
		salt := make([]byte, scenario.DigestSaltBytes)
		_, _ = rand.Read(salt) // crypto/rand never fails on Linux
		out = append(out, scenario.ReplayCondition{Variable: name, Digest: scenario.VariableDigest(named[name].value(env), salt)})
	}
	return out
}

// envNames are the environment variables the {"env"} variables read.
func (vs variables) envNames() []string {
	var out []string
	for _, name := range slices.Sorted(maps.Keys(vs)) {
		if e := vs[name].env; e != "" {
			out = append(out, e)
		}
	}
	return out
}

// doVariables are a do's variables: those it gave over those earlier dos gave as {"env"},
// which it must send (the do command reads them from its environment: EnvValues).
func (h *Host) doVariables(given variables, env map[string]string) (variables, error) {
	all := variables{}
	for name, e := range h.envVars {
		all[name] = variable{env: e}
	}
	maps.Copy(all, given)
	for _, name := range slices.Sorted(maps.Keys(all)) {
		v := all[name]
		if v.env == "" {
			continue
		}
		if _, ok := env[v.env]; !ok {
			why := ""
			if _, own := given[name]; !own {
				why = "; an earlier command gave %" + name + "% from it, and every later one reads it"
			}
			return nil, Errorf(CodeInvalidInput, "%s (variable %%%s%%) is not set in the environment of `session do`%s", v.env, name, why)
		}
	}
	return all, nil
}

// remember keeps the source of each {"env"} variable a do gave, for every later do.
func (h *Host) remember(given variables) {
	for name, v := range given {
		if v.env != "" {
			if h.envVars == nil {
				h.envVars = map[string]string{}
			}
			h.envVars[name] = v.env
		}
	}
}

// wordsOf is an act in words' words ("" when op is not one).
func wordsOf(op json.RawMessage) string {
	var probe struct {
		Act string `json:"act"`
	}
	_ = json.Unmarshal(op, &probe)
	return probe.Act
}
