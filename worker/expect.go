package worker

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"

	cdpruntime "github.com/mafredri/cdp/protocol/runtime"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/transport"
)

// The web-first assertion kinds (transport/expect.go): what one look reads of the element
// (expect.js, and actionability's stateFn for visible and enabled), of every match of a
// locator (text's values), and of the page's web storage; and how each compares, as
// Playwright's expect does.

//go:embed expect.js
var expectJS string

// expectRead is what expect.js read of one element.
type expectRead struct {
	ClassName string   `json:"className"`
	HiddenBy  string   `json:"hiddenBy"`
	Focused   bool     `json:"focused"`
	CanEdit   bool     `json:"canEdit"`
	ReadOnly  bool     `json:"readOnly"`
	Password  bool     `json:"password"`
	Present   bool     `json:"present"`
	Attr      string   `json:"attr"`
	Text      string   `json:"text"`
	Multiple  bool     `json:"multiple"`
	Values    []string `json:"values"`
}

// expectReq is expect.js's request.
type expectReq struct {
	Name   string `json:"name,omitempty"`
	Text   bool   `json:"text,omitempty"`
	Inner  bool   `json:"inner,omitempty"`
	Values bool   `json:"values,omitempty"`
	Max    int    `json:"max"`
}

func expectReqFor(r *transport.Assert) expectReq {
	return expectReq{Name: r.Name, Text: r.Kind == transport.AssertText, Inner: r.UseInnerText,
		Values: r.Kind == transport.AssertValues, Max: budgets.ReadTextChars}
}

// isStateKind: visible, hidden, enabled, disabled, editable, focused.
func isStateKind(kind string) bool { return slices.Contains(transport.StateKinds, kind) }

// expectKind: a kind this file reads an element for.
func expectKind(kind string) bool {
	switch kind {
	case transport.AssertAttribute, transport.AssertClass, transport.AssertClassContains, transport.AssertText, transport.AssertValues:
		return true
	}
	return isStateKind(kind)
}

// readExpect reads what r's kind compares of el. What the element is (not editable at all,
// not a multi-select) is refused at once, as Playwright throws.
func (w *Worker) readExpect(ctx context.Context, t *tab, el *element, r *transport.Assert, s scoped) (scoped, error) {
	switch r.Kind {
	case transport.AssertVisible, transport.AssertHidden, transport.AssertEnabled, transport.AssertDisabled, transport.AssertEditable:
		st, err := w.readState(ctx, t, el)
		if err != nil {
			return scoped{}, err
		}
		s.st = st
	}
	if err := w.call(ctx, t, el, expectJS, &s.ex, expectReqFor(r)); err != nil {
		return scoped{}, err
	}
	switch {
	case r.Kind == transport.AssertEditable && !s.ex.CanEdit:
		return scoped{}, actError(transport.CodeElementNotActionable,
			"%s is not an input, textarea, select, contenteditable element or an element whose role takes aria-readonly: editable does not apply to it", s.what)
	case r.Kind == transport.AssertValues && !s.ex.Multiple:
		return scoped{}, actError(transport.CodeElementNotActionable, "%s is not a select with the multiple attribute", s.what)
	}
	return s, nil
}

// readTexts reads the text of every match of r's target, in order (text's values form: no
// strictness, as Playwright's toHaveText with an array).
func (w *Worker) readTexts(ctx context.Context, t *tab, r *transport.Assert) (scoped, error) {
	lk := newLook(w, t)
	defer lk.release(ctx)
	hs, err := lk.find(ctx, *r.Target, true)
	if err != nil {
		return scoped{}, err
	}
	texts := map[*hit]string{}
	req, err := json.Marshal(expectReqFor(r))
	if err != nil {
		return scoped{}, err
	}
	order, groups := bySession(hs)
	for _, sess := range order {
		err := lk.inSession(ctx, sess, func(world cdpruntime.ExecutionContextID) error {
			kept, objs, err := lk.handles(ctx, world, groups[sess])
			if err != nil {
				return err
			}
			for i, o := range objs {
				reply, err := kept[i].c.Runtime.CallFunctionOn(ctx, cdpruntime.NewCallFunctionOnArgs(expectJS).
					SetObjectID(o).SetArguments([]cdpruntime.CallArgument{{Value: req}}).SetReturnByValue(true).SetSilent(true))
				if err != nil {
					return err
				}
				if reply.ExceptionDetails != nil {
					continue // it left the page between the look and the read
				}
				var ex expectRead
				if err := json.Unmarshal(reply.Result.Value, &ex); err != nil {
					return err
				}
				texts[kept[i]] = ex.Text
			}
			return nil
		})
		if err := lk.refineFailed(err, sess); err != nil {
			return scoped{}, err
		}
	}
	s := scoped{what: targetWords(*r.Target), list: []string{}}
	for _, h := range hs {
		if v, ok := texts[h]; ok {
			s.list = append(s.list, v)
		}
	}
	return s, nil
}

// storageRead is one look at a key of the page's web storage.
type storageRead struct {
	Denied  bool   `json:"denied"`
	Present bool   `json:"present"`
	Value   string `json:"value"`
	Cut     bool   `json:"cut"`
}

// storageScript reads one key of the top document's own localStorage or sessionStorage
// (read-only: getItem). A document whose storage the browser refuses (an opaque origin)
// answers denied.
func storageScript(k *transport.StorageKey) (string, error) {
	args, err := json.Marshal([]any{k.Area, k.Key, budgets.FieldValueChars})
	if err != nil {
		return "", err
	}
	return `((area, key, max) => {
  let s;
  try { s = area === 'session' ? window.sessionStorage : window.localStorage; s.length; } catch (e) { return {denied: true}; }
  const v = s.getItem(key);
  if (v === null) return {present: false};
  if (v.length <= max) return {present: true, value: v};
  const end = /[\uD800-\uDBFF]/.test(v[max - 1]) ? max - 1 : max;
  return {present: true, value: v.slice(0, end), cut: true};
}).apply(null, ` + string(args) + `)`, nil
}

func (w *Worker) readStorage(ctx context.Context, t *tab, k *transport.StorageKey) (storageRead, error) {
	var out storageRead
	script, err := storageScript(k)
	if err != nil {
		return out, err
	}
	err = w.evaluate(ctx, t, script, &out)
	return out, err
}

// normalizeText is Playwright's normalizeWhiteSpace, applied to both sides of a string
// comparison of text and class: zero-width spaces dropped, trimmed, runs of white space one
// space. A regex is matched against the text as it is.
func normalizeText(s string) string { return transport.FoldSpace(s) }

// matchValue compares got with m: a regex is searched for in got as it is; a string equals
// got (both normalised when normalize), case-insensitively with ignoreCase.
func matchValue(m *transport.ValueMatch, got string, ignoreCase, normalize bool) bool {
	if m.IsRegex() {
		re, err := m.Compile(ignoreCase)
		return err == nil && re.MatchString(got)
	}
	want := m.String
	if normalize {
		want, got = normalizeText(want), normalizeText(got)
	}
	if ignoreCase {
		return strings.EqualFold(want, got)
	}
	return want == got
}

// matchList compares a list in order: as many items, each matching.
func matchList(want []transport.ValueMatch, got []string, normalize bool) bool {
	if len(want) != len(got) {
		return false
	}
	for i := range want {
		if !matchValue(&want[i], got[i], false, normalize) {
			return false
		}
	}
	return true
}

// expectHolds decides the kinds of this file, and the regex forms of url, title and value.
func expectHolds(r *transport.Assert, f facts) bool {
	sc := f.scoped
	switch r.Kind {
	case transport.AssertVisible:
		return !sc.absent && sc.st.Visible
	case transport.AssertHidden:
		return sc.absent || !sc.st.Visible
	case transport.AssertEnabled:
		return sc.st.Enabled
	case transport.AssertDisabled:
		return !sc.st.Enabled
	case transport.AssertEditable:
		return sc.st.Enabled && !sc.ex.ReadOnly
	case transport.AssertFocused:
		return sc.ex.Focused
	case transport.AssertAttribute:
		return sc.ex.Present && (r.ValueMatch == nil || matchValue(r.ValueMatch, sc.ex.Attr, r.IgnoreCase, false))
	case transport.AssertClass:
		return matchValue(r.ValueMatch, sc.ex.ClassName, false, true)
	case transport.AssertClassContains:
		have := strings.Fields(sc.ex.ClassName)
		for _, c := range strings.Fields(r.Value) {
			if !slices.Contains(have, c) {
				return false
			}
		}
		return true
	case transport.AssertText:
		if r.Values != nil {
			return matchList(r.Values, sc.list, true)
		}
		return matchValue(r.ValueMatch, sc.ex.Text, r.IgnoreCase, true)
	case transport.AssertValues:
		return matchList(r.Values, sc.ex.Values, false)
	case transport.AssertURL:
		return matchValue(r.ValueMatch, f.URL, r.IgnoreCase, false)
	case transport.AssertTitle:
		return matchValue(r.ValueMatch, f.Title, false, false)
	case transport.AssertValue:
		return matchValue(r.ValueMatch, sc.value, false, false) || sc.label != "" && matchValue(r.ValueMatch, sc.label, false, false)
	case transport.AssertStorage:
		st := f.storage
		switch {
		case !st.Present:
			return false
		case r.JSONContains != nil:
			return jsonContains(st.Value, r.JSONContains)
		case r.ValueMatch != nil:
			return !st.Cut && st.Value == r.Value
		}
		return true
	}
	return false
}

// jsonContains: the stored text, parsed as JSON, contains want — objects a subset of keys
// (recursively), arrays every expected element found in some element, scalars equal.
func jsonContains(stored string, want transport.JSONValue) bool {
	var got, exp any
	if json.Unmarshal([]byte(stored), &got) != nil || json.Unmarshal(want, &exp) != nil {
		return false
	}
	return containsJSON(got, exp)
}

func containsJSON(got, want any) bool {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return false
		}
		for k, wv := range w {
			gv, ok := g[k]
			if !ok || !containsJSON(gv, wv) {
				return false
			}
		}
		return true
	case []any:
		g, ok := got.([]any)
		if !ok {
			return false
		}
		for _, wv := range w {
			if !slices.ContainsFunc(g, func(gv any) bool { return containsJSON(gv, wv) }) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(got, want)
}

// absentForState: a visible or hidden assertion whose target is not there reads it as
// hidden (Playwright: a locator that matches nothing is hidden), rather than waiting for it.
func absentForState(r *transport.Assert, err error) bool {
	var ny *notYet
	return (r.Kind == transport.AssertVisible || r.Kind == transport.AssertHidden) &&
		errors.As(err, &ny) && ny.code == transport.CodeElementNotFound
}
