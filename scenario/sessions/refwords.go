package sessions

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/fastbrowser/fastbrowser/scenario"
	"github.com/fastbrowser/fastbrowser/transport"
)

// A click, typing or pick by outline ref is kept as the act a person would write for it,
// such as `Click the "Sign in" button` (the do result's "act"), with the action it took as
// its recording: the export is an act with words, which `run` replays exactly and heals by
// those words when the page changed (scenario "Acts in words").

// refWords is the act in words of a by-ref act, and the variable its typed text is (its
// placeholder stands in the words: the recording types the variable, not its value). ok is
// false for an action a person would not write so (hover, focus, upload…) or an element
// with no name to write it by.
func refWords(r *transport.Receipt, text json.RawMessage, textVar string, vs variables) (words string, v variables, ok bool) {
	if r == nil || r.Role == "" || r.Name == "" {
		return "", nil, false
	}
	el := strconv.Quote(r.Name) + " " + noun(r.Role)
	switch r.Action {
	case transport.ActClick:
		return "Click the " + el, nil, true
	case transport.ActCheck:
		return "Check the " + el, nil, true
	case transport.ActUncheck:
		return "Uncheck the " + el, nil, true
	case transport.ActSelect:
		return "Select " + strconv.Quote(r.Option) + " in the " + el, nil, true
	case transport.ActType, transport.ActFill:
		if textVar != "" {
			return "Type %" + textVar + "% into the " + el, variables{textVar: vs[textVar]}, true
		}
		var lit string
		if json.Unmarshal(text, &lit) == nil {
			return "Type " + strconv.Quote(lit) + " into the " + el, nil, true
		}
		var ref struct {
			Env string `json:"env"`
		}
		if json.Unmarshal(text, &ref) == nil && ref.Env != "" {
			// A secret typed from the environment: the words name it as a variable of the
			// same name, which the model types by placeholder and never sees.
			name := ref.Env
			for n, v := range vs {
				if v.env == ref.Env {
					name = n
				}
			}
			if scenario.ValidVarName(name) {
				return "Type %" + name + "% into the " + el, variables{name: {env: ref.Env}}, true
			}
		}
	}
	return "", nil, false
}

// noun is how the words name an element of role.
func noun(role string) string {
	switch role {
	case "textbox", "password", "searchbox":
		return "field"
	case "combobox", "listbox":
		return "select"
	}
	return role
}

// withWords adds words (and the variables they name) to an exported act.
func withWords(export json.RawMessage, words string, vs variables, defaults map[string]string) json.RawMessage {
	var e map[string]any
	dec := json.NewDecoder(bytes.NewReader(export))
	dec.UseNumber()
	if dec.Decode(&e) != nil || e["op"] != transport.OpAct {
		return export
	}
	e["words"] = words
	if len(vs) > 0 {
		e["variables"] = vs.exportForm(defaults)
	}
	out, err := json.Marshal(e)
	if err != nil {
		return export
	}
	return out
}

// requestText is an act entry's request.text as written (nil when none).
func requestText(entry json.RawMessage) json.RawMessage {
	var e struct {
		Request struct {
			Text json.RawMessage `json:"text"`
		} `json:"request"`
	}
	_ = json.Unmarshal(entry, &e)
	return e.Request.Text
}
