package runtime

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/runtime/model"
	"github.com/fastbrowser/fastbrowser/transport"
)

// extractAnswer is what the extract tool's call carries.
type extractAnswer struct {
	Data      json.RawMessage   `json:"data"`
	Citations map[string]string `json:"citations"`
}

// checkExtractReply decides the model's answer: exactly one call to extract, data that
// satisfies the schema and fits the data bound, and a citation for every scalar, to a ref the
// model was shown whose text holds a string value; nothing else cited. Refusals are
// task_refused and name a JSON Pointer and what was wrong, never a value.
func checkExtractReply(reply model.Reply, schema *jsonschema.Schema, page *extractPage) (json.RawMessage, map[string]string, error) {
	switch {
	case len(reply.Calls) == 0:
		return nil, nil, extractRefused("the model called no tool; extract takes one call to extract")
	case len(reply.Calls) > 1:
		return nil, nil, extractRefused("the model made %d tool calls; extract takes exactly one, to extract", len(reply.Calls))
	case reply.Calls[0].Name != transport.ToolExtract:
		return nil, nil, extractRefused("the model called a tool other than extract")
	}
	var ans extractAnswer
	if err := json.Unmarshal(reply.Calls[0].Arguments, &ans); err != nil {
		return nil, nil, extractRefused(`the extract call's arguments are not {"data": …, "citations": {pointer: ref}}`)
	}
	for p, ref := range ans.Citations {
		ans.Citations[p] = modelRef(ref)
	}
	if len(ans.Data) == 0 || string(ans.Data) == "null" {
		return nil, nil, extractRefused("the extract call carries no data")
	}
	if len(ans.Data) > budgets.ExtractDataBytes {
		return nil, nil, extractRefused("the model's data is %d bytes, more than the %d extract takes", len(ans.Data), budgets.ExtractDataBytes)
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(ans.Data))
	if err != nil {
		return nil, nil, extractRefused("the model's data is not JSON")
	}
	if err := schema.Validate(v); err != nil {
		at, keyword, missing, _ := transport.SchemaViolation(err)
		msg := fmt.Sprintf("the model's data at %s fails the schema's %q keyword", at, keyword)
		if len(missing) > 0 {
			msg += fmt.Sprintf(" (missing %s)", strings.Join(missing, ", "))
		}
		return nil, nil, extractRefused("%s", msg)
	}
	scalars := map[string]any{}
	scalarsOf(v, "", scalars)
	for _, p := range slices.Sorted(maps.Keys(scalars)) {
		ref, ok := ans.Citations[p]
		if !ok {
			return nil, nil, extractRefused("the value at %q has no citation", p)
		}
		texts, shown := page.cites[ref]
		if !shown {
			return nil, nil, extractRefused("the value at %q cites %s, which is not in the outline the model was shown", p, refName(ref))
		}
		if s, isString := scalars[p].(string); isString && !occursIn(foldText(s), texts) {
			return nil, nil, extractRefused("the value at %q does not occur in the text of %s, the element it cites", p, refName(ref))
		}
	}
	for _, p := range slices.Sorted(maps.Keys(ans.Citations)) {
		if _, ok := scalars[p]; !ok {
			return nil, nil, extractRefused("the citation for %q names no string, number or boolean in the data", clipPointer(p))
		}
	}
	var data bytes.Buffer
	if err := json.Compact(&data, ans.Data); err != nil {
		return nil, nil, extractRefused("the model's data is not JSON")
	}
	cites := ans.Citations
	if cites == nil {
		cites = map[string]string{}
	}
	return data.Bytes(), cites, nil
}

// scalarsOf records the JSON Pointer of every string, number and boolean in v. A null is no
// value: it needs no citation and may have none.
func scalarsOf(v any, at string, into map[string]any) {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			scalarsOf(e, at+"/"+transport.PointerToken(k), into)
		}
	case []any:
		for i, e := range v {
			scalarsOf(e, fmt.Sprintf("%s/%d", at, i), into)
		}
	case nil:
	default:
		into[at] = v
	}
}

// occursIn: a folded value is in one of texts, or in all of them read together (a value the
// page splits over a node's name and its children's text).
func occursIn(value string, texts []string) bool {
	for _, t := range texts {
		if strings.Contains(t, value) {
			return true
		}
	}
	return strings.Contains(strings.Join(texts, " "), value)
}

// refName quotes a cited ref when it has a ref's shape; anything else the model wrote is
// not repeated.
func refName(ref string) string {
	if refShape.MatchString(ref) {
		return fmt.Sprintf("ref %q", ref)
	}
	return "something that is not an outline ref"
}

// refShape is an outline ref ("e" and a number) or a line id ("L" and a number).
var refShape = regexp.MustCompile(`^[eL][0-9]{1,9}$`)

// clipPointer bounds a pointer the model wrote before it is quoted.
func clipPointer(p string) string {
	if r := []rune(p); len(r) > 80 {
		return string(r[:80]) + "…"
	}
	return p
}

// extractRefused refuses the model's answer: nothing reached the page.
func extractRefused(format string, args ...any) error {
	return transport.NewError(transport.OpExtract, transport.PhaseVerify, transport.CodeTaskRefused, transport.RetrySafe, transport.NotAttempted, format, args...)
}
