package sessions

import (
	"bytes"
	"encoding/json"
	"sort"
	"strings"
	"time"

	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/textclip"
)

// What `session do` reads: one scenario-file operation ({"op":…, "request"|"step", "id"?,
// "context"?, "timeoutMs"?, "when"?}) or a by-ID shorthand with an outline ref:
//
//	{"click":"e12"}  {"check":"e4"}  {"dblclick":"e3"}  {"hover":"e3"}  {"focus":"e7"}
//	{"type":{"into":"e7","text":…}}  {"fill":{"into":"e7","text":…}}  {"clear":"e7"}
//	{"press":{"on":"e7","key":"Control+A"}}  {"select":{"in":"e9","option":…}}
//	{"upload":{"into":"e5","files":[…]}}  (also uncheck, blur, scrollIntoView with a ref)
//
// each with optional "id", "when" and "timeout" (milliseconds, or a duration such as "5s").
// {"act":"words"}, an act in words, needs a model.

// shorthands maps each shorthand to the act action it is.
var shorthands = map[string]string{
	"click": transport.ActClick, "check": transport.ActCheck, "type": transport.ActType,
	"select": transport.ActSelect, "upload": transport.ActUpload,
	"dblclick": transport.ActDblclick, "hover": transport.ActHover, "focus": transport.ActFocus,
	"blur": transport.ActBlur, "uncheck": transport.ActUncheck, "clear": transport.ActClear,
	"scrollIntoView": transport.ActScrollIntoView, "fill": transport.ActFill, "press": transport.ActPress,
}

// shorthandBodies are the shorthands that take an object: the key naming the element's
// ref, and the act field the other key carries. Every other shorthand takes a ref alone.
var shorthandBodies = map[string][2]string{
	"type": {"into", "text"}, "fill": {"into", "text"}, "select": {"in", "option"},
	"upload": {"into", "files"}, "press": {"on", "key"},
}

// common are the keys any operation given to do may carry besides its own.
var common = map[string]bool{"id": true, "when": true, "timeout": true}

// normalize turns what do read into a scenario-file operation entry.
func normalize(raw json.RawMessage) (json.RawMessage, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(raw, &top); err != nil || top == nil {
		return nil, Errorf(CodeInvalidInput, "the operation on stdin is not a JSON object")
	}
	entry := map[string]any{}
	if t, ok := top["timeout"]; ok {
		ms, err := timeoutMs(t)
		if err != nil {
			return nil, err
		}
		if _, dup := top["timeoutMs"]; dup {
			return nil, Errorf(CodeInvalidInput, `give "timeout" or "timeoutMs", not both`)
		}
		entry["timeoutMs"] = ms
		delete(top, "timeout")
	}
	if _, ok := top["op"]; ok {
		if bytes.Equal(bytes.TrimSpace(top["op"]), []byte(`"captureEvidence"`)) {
			return nil, Errorf(CodeInvalidInput, `captureEvidence is not a session operation: use {"op":"screenshot"} or "session describe --screenshot"`)
		}
		for k, v := range top {
			entry[k] = v
		}
		return json.Marshal(entry)
	}
	if a, ok := top["act"]; ok && len(a) > 0 && a[0] == '"' {
		return nil, Errorf(CodeModelRequired, "an act in words needs a model, and none is configured; name the element by its outline ref ({\"click\":\"e12\"}) or by role and name ({\"op\":\"act\",…})")
	}
	var name string
	for k := range top {
		if common[k] {
			continue
		}
		if _, ok := shorthands[k]; !ok || name != "" {
			return nil, Errorf(CodeInvalidInput, "unknown operation %s: expected {\"op\":…} (a scenario-file operation) or one of %s, with optional id, when and timeout",
				quoteKeys(top), strings.Join(shorthandNames(), ", "))
		}
		name = k
	}
	if name == "" {
		return nil, Errorf(CodeInvalidInput, "the object names no operation: expected {\"op\":…} or one of %s", strings.Join(shorthandNames(), ", "))
	}
	req, err := shorthandRequest(name, top[name])
	if err != nil {
		return nil, err
	}
	entry["op"], entry["request"] = transport.OpAct, req
	for k := range common {
		if v, ok := top[k]; ok && k != "timeout" {
			entry[k] = v
		}
	}
	return json.Marshal(entry)
}

// isShorthand: raw is a by-ID shorthand ({"click":"e12"}, …), not a scenario-file operation.
func isShorthand(raw json.RawMessage) bool {
	var top map[string]json.RawMessage
	if json.Unmarshal(raw, &top) != nil {
		return false
	}
	for k := range top {
		if _, ok := shorthands[k]; ok {
			return true
		}
	}
	return false
}

// shorthandRequest is the act request of one shorthand.
func shorthandRequest(name string, raw json.RawMessage) (map[string]any, error) {
	action := shorthands[name]
	req := map[string]any{"action": action}
	var ref string
	shape, hasBody := shorthandBodies[name]
	if !hasBody {
		if err := json.Unmarshal(raw, &ref); err != nil {
			return nil, Errorf(CodeInvalidInput, "%s: expected an outline ref such as \"e12\"", name)
		}
	} else {
		var body map[string]json.RawMessage
		if err := json.Unmarshal(raw, &body); err != nil || body == nil {
			return nil, Errorf(CodeInvalidInput, "%s: expected an object", name)
		}
		refKey, want := shape[0], shape[1]
		for k := range body {
			if k != refKey && k != want {
				return nil, Errorf(CodeInvalidInput, "%s: unknown field %q; expected %q and %q", name, textclip.Clip(k, 40), refKey, want)
			}
		}
		if err := json.Unmarshal(body[refKey], &ref); err != nil {
			return nil, Errorf(CodeInvalidInput, "%s.%s: expected an outline ref such as \"e7\"", name, refKey)
		}
		v, ok := body[want]
		if !ok {
			return nil, Errorf(CodeInvalidInput, "%s: missing %q", name, want)
		}
		req[want] = v
	}
	req["target"] = map[string]string{"ref": unbracket(ref)}
	return req, nil
}

// unbracket is a ref as the outline shows it, "[e12]", or as written, "e12": the ref.
func unbracket(ref string) string {
	if len(ref) > 2 && ref[0] == '[' && ref[len(ref)-1] == ']' {
		return ref[1 : len(ref)-1]
	}
	return ref
}

// timeoutMs reads "timeout": milliseconds, or a duration string.
func timeoutMs(raw json.RawMessage) (int64, error) {
	var ms int64
	if err := json.Unmarshal(raw, &ms); err == nil && ms > 0 {
		return ms, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		if d, err := time.ParseDuration(s); err == nil && d >= time.Millisecond {
			return d.Milliseconds(), nil
		}
	}
	return 0, Errorf(CodeInvalidInput, `timeout: expected a positive number of milliseconds or a duration such as "5s"`)
}

func shorthandNames() []string {
	var out []string
	for k := range shorthands {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func quoteKeys(m map[string]json.RawMessage) string {
	var ks []string
	for k := range m {
		ks = append(ks, textclip.Clip(k, 24))
	}
	sort.Strings(ks)
	b, _ := json.Marshal(ks)
	return string(b)
}
