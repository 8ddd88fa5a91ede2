package sessions

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/fastbrowser/fastbrowser/scenario"
	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/names"
	"github.com/fastbrowser/fastbrowser/transport/policy"
)

// ExportOptions are what `session export` was asked for.
type ExportOptions struct {
	ID   string // the scenario id; "" → "session-" + rec.ID
	Skip []int  // history indexes (Entry.Index) to leave out
}

// Exported is a session's history as a scenario file, not yet written anywhere.
type Exported struct {
	File       []byte   // the scenario file v1, indented JSON (2 spaces, no HTML escaping), ending in "\n"
	Operations int      // how many operations it holds
	Warnings   []string // what may not replay as it was recorded, in operation order
}

// exportFile is the scenario file an export writes: only the fields a session has.
type exportFile struct {
	Version        int      `json:"version"`
	ID             string   `json:"id"`
	Description    string   `json:"description"`
	AllowedOrigins []string `json:"allowedOrigins,omitempty"`
	// Viewport is the session's --viewport: the one browser option a scenario file holds
	// (headless is the runner's; a browser path, profile or proxy belong to the machine).
	Viewport *transport.Viewport `json:"viewport,omitempty"`
	// Variables are the literal variables the exported operations name as {"var": name},
	// with the value the session gave each: their defaults, which `run --var` overrides.
	Variables  map[string]string `json:"variables,omitempty"`
	Operations []json.RawMessage `json:"operations"`
}

// fromHistory is what the file's operations[K] was: a history index, or leadingNavigate.
const leadingNavigate = -1

// Export turns a session's history into a scenario file v1 that `fastbrowser run` replays on
// a fresh page: the session's URL as a leading navigate, then every operation that was done
// or skipped (skipped ones keep their when, so a replay skips them the same way), each as
// the host recorded it for export (by-ID targets already role and name; {"env"} text as
// {"env"}). The file is validated as `fastbrowser validate` would, with uploads resolved
// against the session's working directory; Export writes nothing.
func Export(rec Record, entries []Entry, opts ExportOptions) (*Exported, error) {
	id := opts.ID
	if id == "" {
		id = "session-" + rec.ID
	} else if !names.ValidID(id) {
		return nil, Errorf(CodeInvalidInput, "scenario id %q: expected 1–64 characters of A–Z, a–z, 0–9, '.', '_' or '-'", id)
	}
	history := slices.Clone(entries)
	slices.SortStableFunc(history, func(a, b Entry) int { return a.Index - b.Index })
	byIndex := map[int]*Entry{}
	for i := range history {
		e := &history[i]
		if byIndex[e.Index] != nil {
			return nil, Errorf(CodeFailed, "the history holds operation %d twice", e.Index)
		}
		byIndex[e.Index] = e
	}
	skip := map[int]bool{}
	for _, n := range opts.Skip {
		e := byIndex[n]
		switch {
		case e == nil:
			return nil, Errorf(CodeInvalidInput, "--skip %d: history has no operation %d", n, n)
		case e.Status == StatusFailed:
			return nil, Errorf(CodeInvalidInput, "--skip %d: operation %d failed and is not exported anyway", n, n)
		}
		skip[n] = true
	}

	f := exportFile{Version: scenario.FileVersion, ID: id,
		Description: fmt.Sprintf("Exported from session %s on %s", rec.ID, rec.Created.UTC().Format(time.RFC3339))}
	if o := rec.Options.AllowedOrigins; len(o) > 0 && !slices.Equal(o, []string{policy.Any}) {
		f.AllowedOrigins = o // left out, a file without a fixture allows any origin, as "*" does
	}
	if rec.Options.Viewport != "" {
		vp, err := transport.ParseViewport(rec.Options.Viewport)
		if err != nil {
			return nil, Errorf(CodeFailed, "the session's viewport %q: %v", rec.Options.Viewport, err)
		}
		f.Viewport = &vp
	}
	var from []int // from[K]: what operations[K] was
	if rec.Options.URL != "" {
		nav, err := marshal(map[string]any{"op": transport.OpNavigate, "request": map[string]string{"url": rec.Options.URL}})
		if err != nil {
			return nil, Errorf(CodeFailed, "the leading navigate: %v", err)
		}
		f.Operations, from = append(f.Operations, nav), append(from, leadingNavigate)
	}
	var kept []*Entry
	for i := range history {
		e := &history[i]
		if (e.Status != StatusDone && e.Status != StatusSkipped) || skip[e.Index] || isScreenshot(e.Export) {
			continue
		}
		if e.NotPicked {
			kept = append(kept, e) // left out of the file; warnings says so
			continue
		}
		if len(bytes.TrimSpace(e.Export)) == 0 {
			return nil, Errorf(CodeFailed, "history operation %d is %s but has no exported form", e.Index, e.Status)
		}
		if !json.Valid(e.Export) {
			return nil, Errorf(CodeFailed, "history operation %d: its exported form is not JSON", e.Index)
		}
		f.Operations, from = append(f.Operations, ordered(withVariables(&f, e))), append(from, e.Index)
		kept = append(kept, e)
	}
	if len(f.Operations) == 0 {
		return nil, Errorf(CodeInvalidInput, "nothing to export: the session has no URL and no operation that was done or skipped")
	}
	data, err := marshal(f)
	if err != nil {
		return nil, Errorf(CodeFailed, "encode the scenario file: %v", err)
	}
	if _, err := scenario.ParseIn(data, rec.Options.Dir, id+".json"); err != nil {
		return nil, exportRefusal(err, from, history, skip)
	}
	return &Exported{File: append(data, '\n'), Operations: len(f.Operations), Warnings: warnings(rec.startURL(), kept)}, nil
}

// withVariables is e's exported form once its literal variables are the file's: the first
// value a name had becomes the file's variable; an operation that gave the same name another
// value keeps its own value written out in place of {"var": name} (a file has one value per
// name).
func withVariables(f *exportFile, e *Entry) json.RawMessage {
	out := e.Export
	for _, name := range slices.Sorted(maps.Keys(e.ExportVariables)) {
		v := e.ExportVariables[name]
		if old, ok := f.Variables[name]; ok && old != v {
			out = inlineVar(out, name, v)
			continue
		}
		if f.Variables == nil {
			f.Variables = map[string]string{}
		}
		f.Variables[name] = v
	}
	return out
}

// opKeyOrder is the order an exported operation's members are written in, as a person
// writes them: what it is (id, op), the words before their recording, then the rest. A
// member not listed follows, in name order.
var opKeyOrder = []string{"id", "op", "words", "request", "step", "variables", "replayIf", "context", "timeoutMs", "when", "soft"}

// ordered is an operation's JSON object with its members in opKeyOrder (raw as it is when it
// is not an object).
func ordered(raw json.RawMessage) json.RawMessage {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil || m == nil {
		return raw
	}
	keys := slices.Sorted(maps.Keys(m))
	slices.SortStableFunc(keys, func(a, b string) int {
		rank := func(k string) int {
			if i := slices.Index(opKeyOrder, k); i >= 0 {
				return i
			}
			return len(opKeyOrder)
		}
		return rank(a) - rank(b)
	})
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		name, _ := json.Marshal(k)
		b.Write(name)
		b.WriteByte(':')
		b.Write(m[k])
	}
	b.WriteByte('}')
	return b.Bytes()
}

// inlineVar replaces each {"var": name} in raw with value.
func inlineVar(raw json.RawMessage, name, value string) json.RawMessage {
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if dec.Decode(&v) != nil {
		return raw
	}
	var walk func(x any) any
	walk = func(x any) any {
		switch t := x.(type) {
		case map[string]any:
			if n, ok := t["var"].(string); ok && len(t) == 1 && n == name {
				return value
			}
			for k, c := range t {
				t[k] = walk(c)
			}
		case []any:
			for i, c := range t {
				t[i] = walk(c)
			}
		}
		return x
	}
	out, err := json.Marshal(walk(v))
	if err != nil {
		return raw
	}
	return out
}

// isScreenshot: the exported form is a screenshot, which an export leaves out as the seed
// does: it records how the page looked to the person building the scenario, not a step
// of what the scenario does (failure evidence is the run's own).
func isScreenshot(export json.RawMessage) bool {
	return decodeExported(export).Op == transport.OpScreenshot
}

// marshal is indented JSON without HTML escaping (a URL's & stays &); json.RawMessage
// values are re-indented with the rest, their members and numbers as recorded.
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

var opPath = regexp.MustCompile(`^operations\[(\d+)\]`)

// exportRefusal is export_invalid for a file scenario.Parse refused, naming the history operation
// the refused entry came from and, when it names an id an operation left out with --skip
// had, that operation.
func exportRefusal(err error, from []int, history []Entry, skip map[int]bool) error {
	var ve *scenario.ValidationError
	if !errors.As(err, &ve) {
		return Errorf(CodeExportInvalid, "the exported file does not validate: %v", err)
	}
	where := ""
	if m := opPath.FindStringSubmatch(ve.Path); m != nil {
		k, _ := strconv.Atoi(m[1])
		switch {
		case k < len(from) && from[k] == leadingNavigate:
			where = fmt.Sprintf("the leading navigate (exported as operations[%d]): ", k)
		case k < len(from):
			where = fmt.Sprintf("history operation %d (exported as operations[%d]): ", from[k], k)
		}
	}
	msg := fmt.Sprintf("%s%s: %s", where, ve.Path, ve.Message)
	for _, e := range history {
		if id := exportedID(e.Export); skip[e.Index] && id != "" && strings.Contains(ve.Message, strconv.Quote(id)) {
			msg += fmt.Sprintf("; history operation %d, which has id %q, was left out with --skip", e.Index, id)
		}
	}
	return Errorf(CodeExportInvalid, "the exported file would not validate: %s", msg)
}

// exported is the part of an exported operation the warnings read.
type exported struct {
	ID      string `json:"id"`
	Op      string `json:"op"`
	Request struct {
		Target *transport.Target `json:"target"`
		Files  []string          `json:"files"`
	} `json:"request"`
	Step struct {
		Target *transport.Target `json:"target"`
	} `json:"step"`
	ReplayIf []scenario.ReplayCondition `json:"replayIf"`
	When     json.RawMessage            `json:"when"`
}

func decodeExported(raw json.RawMessage) exported {
	var x exported
	_ = json.Unmarshal(raw, &x) // best effort: a warning without the detail is still a warning
	return x
}

func exportedID(raw json.RawMessage) string { return decodeExported(raw).ID }

// warnings says, per exported history operation in order, what may not replay as it was
// recorded: a page it started on that the exported operations before it did not leave it
// on, an element its role and name did not single out, a task or extract (it needs a model),
// and files it uploads.
func warnings(startURL string, kept []*Entry) []string {
	var out []string
	prev := startURL
	for _, e := range kept {
		if e.NotPicked {
			out = append(out, fmt.Sprintf("history operation %d, an upload into words, is left out: its when did not hold, so the model never picked the file input it would upload into", e.Index))
			continue
		}
		x := decodeExported(e.Export)
		if prev != "" && e.URLBefore != "" && !samePage(e.URLBefore, prev) {
			at, was := pageOf(e.URLBefore), pageOf(prev)
			if at == was {
				at += " with another query" // the query itself is not shown
			}
			out = append(out, fmt.Sprintf("history operation %d started on %s, not on %s where the exported operations before it left the page: it was reached outside them (an operation left out or failed, or a person in the browser), so a replay may be elsewhere",
				e.Index, at, was))
		}
		if e.URLAfter != "" {
			prev = e.URLAfter
		}
		if e.NotUnique {
			what := "its element's role and name"
			if t := targetOf(x); t != nil && t.Role != "" {
				what = "its target " + t.Describe()
			}
			out = append(out, fmt.Sprintf("history operation %d: %s matched more than one element when it was recorded, so a replay may find another (or fail as ambiguous)", e.Index, what))
		}
		for _, ref := range e.UnresolvedRefs {
			out = append(out, fmt.Sprintf("history operation %d names an element by outline ref %s, which the host could not turn into a role and accessible name (no outline the session showed had it, or its element has no name): a fresh page has no such ref, so the replay will fail there; name the element by role and name instead", e.Index, ref))
		}
		if e.NoRecording {
			out = append(out, fmt.Sprintf("history operation %d is an act in words exported by its words alone: its action used a variable's value in what it acted on (or mixed a variable into other text), so a recording would replay that one value; replaying it needs a model (--model, or a \"model\" in the scenario or run config)", e.Index))
		}
		if len(x.ReplayIf) > 0 {
			var vs []string
			for _, c := range x.ReplayIf {
				vs = append(vs, "%"+c.Variable+"%")
			}
			out = append(out, fmt.Sprintf("history operation %d replays its recording only while %s has the value the session gave it; with another value it runs by its words, which needs a model", e.Index, strings.Join(vs, " and ")))
		}
		var judged string
		if json.Unmarshal(x.When, &judged) == nil {
			out = append(out, fmt.Sprintf("history operation %d has a when in words, kept as written: the model judges it on every replay, which needs a model (--model, or a \"model\" in the scenario or run config)", e.Index))
		}
		if x.Op == transport.OpTask || x.Op == transport.OpExtract {
			out = append(out, fmt.Sprintf("history operation %d is %s, kept as written: replaying it needs a model (--model, or a \"model\" in the scenario or run config), and the model may choose differently", e.Index, x.Op))
		}
		if e.Upload {
			files := ""
			if len(x.Request.Files) > 0 {
				files = " (" + strings.Join(x.Request.Files, ", ") + ")"
			}
			out = append(out, fmt.Sprintf("history operation %d uploads files%s: they must exist where the file is replayed (relative paths resolve against the scenario file's directory) and be under the directory `fastbrowser run` runs in", e.Index, files))
		}
	}
	return out
}

func targetOf(x exported) *transport.Target {
	if x.Request.Target != nil {
		return x.Request.Target
	}
	return x.Step.Target
}

// samePage: a and b are one page as a browser reports it: the origin as the origin policy
// compares it (so a default port makes no difference), an empty path as "/" ("http://a.test"
// is at "http://a.test/"), the query, and not the fragment.
func samePage(a, b string) bool { return pageKey(a) == pageKey(b) }

func pageKey(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	u.Fragment, u.RawFragment = "", ""
	origin := policy.OriginOf(raw)
	if origin == "" {
		return u.String() // about:blank, data:, file:
	}
	path := u.EscapedPath()
	if path == "" {
		path = "/"
	}
	return origin + path + "?" + u.RawQuery
}

// pageOf is a URL as a warning shows it: origin and path, never credentials, the query or the
// fragment (they may hold tokens).
func pageOf(raw string) string {
	u, err := url.Parse(raw)
	if origin := policy.OriginOf(raw); err == nil && origin != "" {
		return origin + u.EscapedPath()
	}
	if err == nil && u.Scheme == "about" {
		return "about:" + u.Opaque
	}
	return "a page" // data: and file: URLs may hold anything
}
