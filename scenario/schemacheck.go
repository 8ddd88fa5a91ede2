package scenario

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/fastbrowser/fastbrowser/transport"
)

// schemaID is schema.json's $id, under which it is compiled.
const schemaID = "https://fastbrowser.dev/schemas/scenario-v1.json"

var compiledSchema = sync.OnceValues(func() (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(SchemaJSON))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(schemaID, doc); err != nil {
		return nil, err
	}
	return c.Compile(schemaID)
})

// schemaPrinter is built on first use: a message printer costs ~100 KB, which a run that
// never lists schema errors should not pay at start (TestOwnPackageInitsAllocateLittle).
var schemaPrinter = sync.OnceValue(func() *message.Printer { return message.NewPrinter(language.English) })

// SchemaErrors checks scenario file bytes against schema.json and returns each violation
// with its field path in Parse's style (operations[2].request.url), in document order,
// one per path. It lets `validate` list every error of a file where the strict decoder
// stops at its first. The schema is never stricter than Parse, so every entry is a real
// error; Parse may still refuse what it lists none of (SchemaJSON says what). Bytes that are
// not JSON give none: Parse's own refusal says why.
func SchemaErrors(data []byte) []*ValidationError {
	sch, err := compiledSchema()
	if err != nil {
		return nil // a build whose schema does not compile fails its tests; Parse still runs
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return nil
	}
	verr, ok := sch.Validate(inst).(*jsonschema.ValidationError)
	if !ok {
		return nil
	}
	var leaves []leaf
	collect(verr, inst, &leaves)
	seen := map[string]bool{}
	var out []*ValidationError
	paths := make([]string, len(leaves))
	for i, l := range leaves {
		paths[i] = schemaPath(inst, l.at)
	}
	// In the order the file reads; a path not found keeps its place after those found.
	at := offsets(data)
	order := make([]int, len(leaves))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		oa, fa := at[paths[a]]
		ob, fb := at[paths[b]]
		if fa && fb {
			return cmp.Compare(oa, ob)
		}
		return cmp.Compare(b2i(!fa), b2i(!fb))
	})
	for _, i := range order {
		l, path := leaves[i], paths[i]
		if seen[path] {
			continue
		}
		seen[path] = true
		out = append(out, &ValidationError{Path: path, Code: transport.CodeInvalidRequest, Message: l.msg})
	}
	return out
}

// leaf is one violation: where (JSON pointer tokens) and what.
type leaf struct {
	at  []string
	msg string
}

// collect walks a validation error's tree down to its leaves. Of an anyOf or oneOf that
// none of its branches matched it keeps the branch that got furthest into the value (a
// fixture object with one bad field is reported as that field, not as "want null"); when
// every branch failed on the value's own type it says so once.
func collect(e *jsonschema.ValidationError, root any, out *[]leaf) {
	switch k := e.ErrorKind.(type) {
	case *kind.AdditionalProperties:
		for _, p := range k.Properties {
			*out = append(*out, leaf{append(slices.Clone(e.InstanceLocation), p), fmt.Sprintf("unknown field %q", p)})
		}
		return
	case *kind.Required:
		for _, p := range k.Missing {
			*out = append(*out, leaf{e.InstanceLocation, fmt.Sprintf("missing required field %q", p)})
		}
		return
	case *kind.PropertyNames:
		// Its causes validate the name as a value of its own, at no location: say it here.
		var why []leaf
		for _, c := range e.Causes {
			collect(c, root, &why)
		}
		msg := fmt.Sprintf("field name %q is not allowed", k.Property)
		if len(why) > 0 {
			msg = fmt.Sprintf("field name %q: %s", k.Property, why[0].msg)
		}
		// The library's InstanceLocation of this error aliases a buffer it goes on using
		// (jsonschema v6.0.3), so the location is found again: the first object with that key.
		*out = append(*out, leaf{findKey(root, k.Property), msg})
		return
	case *kind.AnyOf, *kind.OneOf:
		if len(e.Causes) > 0 {
			collectBranch(e, root, out)
			return
		}
	}
	if len(e.Causes) == 0 {
		*out = append(*out, leaf{e.InstanceLocation, e.ErrorKind.LocalizedString(schemaPrinter())})
		return
	}
	for _, c := range e.Causes {
		collect(c, root, out)
	}
}

func collectBranch(e *jsonschema.ValidationError, root any, out *[]leaf) {
	var best []leaf
	bestScore := -1
	var wants []string
	for _, c := range e.Causes {
		var ls []leaf
		collect(c, root, &ls)
		score := 0
		for _, l := range ls {
			d := 2 * len(l.at)
			if len(l.at) == len(e.InstanceLocation) && !strings.HasPrefix(l.msg, "got ") && !strings.HasPrefix(l.msg, "value must be") {
				d++ // a rule about the value itself, of the right type
			}
			score = max(score, d)
		}
		if score > bestScore {
			best, bestScore = ls, score
		}
		for _, l := range ls {
			wants = append(wants, l.msg)
		}
	}
	if bestScore > 2*len(e.InstanceLocation) {
		*out = append(*out, best...)
		return
	}
	// Every branch refused the value as a whole (its type, a const): one line for them all.
	*out = append(*out, leaf{e.InstanceLocation, oneOfMessage(wants)})
}

// oneOfMessage folds "got number, want object" and "got number, want null" into "got
// number, want object or null"; other messages are joined with "; or ".
func oneOfMessage(msgs []string) string {
	var got string
	var types, other []string
	for _, m := range msgs {
		g, w, ok := strings.Cut(strings.TrimPrefix(m, "got "), ", want ")
		if ok && strings.HasPrefix(m, "got ") && (got == "" || got == g) {
			got = g
			types = append(types, w)
			continue
		}
		other = append(other, m)
	}
	if len(types) > 0 {
		other = append([]string{"got " + got + ", want " + strings.Join(slices.Compact(types), " or ")}, other...)
	}
	return strings.Join(slices.Compact(other), "; or ")
}

// schemaPath renders JSON pointer tokens as Parse does: array indexes in brackets, keys
// dotted, or quoted in brackets when not identifiers. It walks inst so that a key "0" of an
// object is not taken for an index.
func schemaPath(inst any, at []string) string {
	var b strings.Builder
	v := inst
	for _, tok := range at {
		switch cur := v.(type) {
		case []any:
			b.WriteString("[" + tok + "]")
			if i, err := strconv.Atoi(tok); err == nil && i >= 0 && i < len(cur) {
				v = cur[i]
			} else {
				v = nil
			}
			continue
		case map[string]any:
			v = cur[tok]
		default:
			v = nil
		}
		if identifierKey(tok) {
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(tok)
		} else {
			b.WriteString("[" + strconv.Quote(tok) + "]")
		}
	}
	return b.String()
}

func identifierKey(key string) bool {
	if key == "" {
		return false
	}
	for i, c := range key {
		if !(c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || i > 0 && '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}

// findKey is the pointer of the first object member named key, depth first (nil: none).
func findKey(v any, key string) []string {
	switch cur := v.(type) {
	case map[string]any:
		if _, ok := cur[key]; ok {
			return []string{key}
		}
		names := make([]string, 0, len(cur))
		for k := range cur {
			names = append(names, k)
		}
		slices.Sort(names)
		for _, k := range names {
			if p := findKey(cur[k], key); p != nil {
				return append([]string{k}, p...)
			}
		}
	case []any:
		for i, x := range cur {
			if p := findKey(x, key); p != nil {
				return append([]string{strconv.Itoa(i)}, p...)
			}
		}
	}
	return nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// offsets maps each value's path (schemaPath's style) to the byte offset where it starts,
// the first one of a duplicated key; for an unknown field that is where its value starts.
func offsets(data []byte) map[string]int64 {
	at := map[string]int64{}
	dec := json.NewDecoder(bytes.NewReader(data))
	type frame struct {
		path  string
		array bool
		index int
		key   string // the object key whose value comes next; "" before a key
	}
	var stack []*frame
	child := func() string { // the path of the value about to start
		if len(stack) == 0 {
			return ""
		}
		f := stack[len(stack)-1]
		if f.array {
			return f.path + "[" + strconv.Itoa(f.index) + "]"
		}
		if identifierKey(f.key) {
			if f.path == "" {
				return f.key
			}
			return f.path + "." + f.key
		}
		return f.path + "[" + strconv.Quote(f.key) + "]"
	}
	for {
		off := dec.InputOffset()
		tok, err := dec.Token()
		if err != nil {
			return at
		}
		if d, ok := tok.(json.Delim); ok && (d == '}' || d == ']') {
			stack = stack[:len(stack)-1]
			if len(stack) > 0 {
				f := stack[len(stack)-1]
				f.index++
				f.key = ""
			}
			continue
		}
		if len(stack) > 0 {
			if f := stack[len(stack)-1]; !f.array && f.key == "" {
				f.key = tok.(string)
				continue
			}
		}
		p := child()
		if _, dup := at[p]; !dup {
			at[p] = off
		}
		if d, ok := tok.(json.Delim); ok {
			stack = append(stack, &frame{path: p, array: d == '['})
			continue
		}
		if len(stack) > 0 {
			f := stack[len(stack)-1]
			f.index++
			f.key = ""
		}
	}
}

// AllErrors is every error of the file a LoadAll refusal is about, for `validate`: the
// schema's violations (SchemaErrors) in document order, with the strict decoder's refusal
// err in place of the schema's entry at the same path (its message is the more exact one)
// or after them, at most limit entries (and how many more there were). A refusal that is
// not about a scenario file's content (a fragment given as a scenario, an unreadable file, a
// duplicate id across files) is listed alone.
func AllErrors(err error, limit int) (list []error, more int) {
	ve, ok := err.(*ValidationError)
	if !ok || ve.File == "" {
		return []error{err}, 0
	}
	data, rerr := readBounded(ve.File, "file")
	if rerr != nil || IsFragment(data) {
		return []error{err}, 0
	}
	var all []*ValidationError
	placed := false
	for _, se := range SchemaErrors(data) {
		if se.Path == ve.Path && !placed {
			all, placed = append(all, ve), true
			continue
		}
		se.File = ve.File
		all = append(all, se)
	}
	if !placed {
		all = append(all, ve)
	}
	for i, e := range all {
		if i == limit {
			return list, len(all) - limit
		}
		list = append(list, e)
	}
	return list, 0
}
