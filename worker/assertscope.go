package worker

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/transport"
)

// What an assertion with a target or a cell reads: an element's visible text, a table
// cell's, a field's value, a checkbox's state, a count of elements. Each read is one look;
// assert.go repeats it within its budget. What waiting may cure (the element, the table,
// the row or the column is not there yet) is a *notYet; what it cannot (two matches, a
// password field, an element of the wrong kind) is an error at once.

//go:embed assert_cell.js
var assertCellJS string

// cellFn finds the cell and returns its visible text; `this` is the table, or nothing.
var cellFn = "function (rowKey, column, maxRows, maxChars) { return (" + assertCellJS + ").call(this, (" +
	visibleTextJS + "), rowKey, column, maxRows, maxChars); }"

// elementTextFn is the element's visible text (visible_text.js scoped to it).
var elementTextFn = "function (maxChars) { return (" + visibleTextJS + ")(maxChars, this); }"

// fieldValueFn reads a form field's value, but never a password field's: that one answers
// only that it is one. The value (and a select's label) is bounded in the page to maxChars
// (budgets.FieldValueChars) UTF-16 units, never splitting a pair, and says it was cut.
const fieldValueFn = `function (maxChars) {
  let cut = false;
  const bound = (v) => {
    v = String(v);
    if (v.length <= maxChars) return v;
    cut = true;
    const end = /[\uD800-\uDBFF]/.test(v[maxChars - 1]) ? maxChars - 1 : maxChars;
    return v.slice(0, end);
  };
  const tag = this.tagName ? this.tagName.toLowerCase() : '';
  const type = (this.getAttribute && this.getAttribute('type') || '').toLowerCase();
  if (tag === 'input' && type === 'password') return {password: true};
  if (tag === 'select') {
    const o = this.selectedOptions;
    const value = bound(this.value), label = bound(o && o.length ? o[0].label.trim() : '');
    return {field: true, value, label, cut};
  }
  if (tag === 'input' || tag === 'textarea') { const value = bound(this.value); return {field: true, value, cut}; }
  if (this.isContentEditable) { const value = bound(this.innerText); return {field: true, value, cut}; }
  return {field: false};
}`

// scoped is one look at what a scoped assertion compares.
type scoped struct {
	st        elementState // visible, hidden, enabled, disabled, editable: actionability's read
	ex        expectRead   // the kinds of expect.go: what expect.js read
	list      []string     // text's values form: every match's text, in order
	absent    bool         // visible, hidden: no element matched (it is hidden)
	text      string       // textContains: the element's or the cell's visible text
	truncated bool         // text, or a field's value, was cut to its budget
	value     string       // value, checked ("true"/"false"), count (decimal)
	label     string       // value of a select: the chosen option's label, which also matches
	what      string       // what was looked at, for messages: `button "Save"`, `cell (row "alice", column "Role")`
}

// readScoped looks once at what r names.
func (w *Worker) readScoped(ctx context.Context, t *tab, r *transport.Assert) (scoped, error) {
	switch {
	case r.Cell != nil:
		return w.readCell(ctx, t, r.Cell)
	case r.Kind == transport.AssertCount:
		return w.count(ctx, t, *r.Target)
	case r.Kind == transport.AssertText && r.Values != nil:
		return w.readTexts(ctx, t, r)
	}
	el, err := w.locateAny(ctx, t, *r.Target, false)
	if err != nil {
		return scoped{}, err
	}
	s := scoped{what: el.Role + " " + quote(el.Name)}
	if el.Ref != "" {
		s.what = el.Ref + " " + s.what
	}
	if expectKind(r.Kind) {
		return w.readExpect(ctx, t, el, r, s)
	}
	switch r.Kind {
	case transport.AssertTextContains:
		var pt pageText
		if err := w.call(ctx, t, el, elementTextFn, &pt, budgets.ReadTextChars); err != nil {
			return scoped{}, err
		}
		s.text, s.truncated = pt.Text, pt.Truncated
	case transport.AssertChecked:
		st, err := w.readState(ctx, t, el)
		if err != nil {
			return scoped{}, err
		}
		if !st.Checkable {
			return scoped{}, actError(transport.CodeElementNotActionable, "%s is not a checkbox, radio or switch", s.what)
		}
		s.value = boolString(st.Checked)
	case transport.AssertValue:
		return w.readValue(ctx, t, el, s)
	}
	return s, nil
}

// readValue reads a field's value. A password field, and a field a secret was typed into,
// is refused before its value is read: the refusal names the field, never its value.
func (w *Worker) readValue(ctx context.Context, t *tab, el *element, s scoped) (scoped, error) {
	t.mu.Lock()
	secret := t.secretNodes[el.Key()]
	t.mu.Unlock()
	var v struct {
		Password bool   `json:"password"`
		Field    bool   `json:"field"`
		Value    string `json:"value"`
		Label    string `json:"label"`
		Cut      bool   `json:"cut"`
	}
	if !secret && el.Role != "password" {
		if err := w.call(ctx, t, el, fieldValueFn, &v, budgets.FieldValueChars); err != nil {
			return scoped{}, err
		}
	}
	switch {
	case secret:
		return scoped{}, valueRefused(s.what, "a secret was typed into it")
	case el.Role == "password" || v.Password:
		return scoped{}, valueRefused(s.what, "it is a password field")
	case !v.Field:
		return scoped{}, actError(transport.CodeElementNotActionable, "%s is not a form field (input, textarea, select or editable element)", s.what)
	}
	s.value, s.label, s.truncated = v.Value, v.Label, v.Cut
	return s, nil
}

// valueRefused: the value of a password field or of a field holding a secret is never read.
func valueRefused(what, why string) error {
	return transport.NewError(transport.OpAssert, transport.PhasePolicy, transport.CodeInvalidRequest, transport.RetryNever, transport.NotAttempted,
		"the value of %s is never read: %s; assert on what the page shows instead", what, why).WithPath("request.target")
}

// readCell finds the cell and reads its visible text.
func (w *Worker) readCell(ctx context.Context, t *tab, c *transport.Cell) (scoped, error) {
	what := fmt.Sprintf("cell (row %q, column %q)", c.Row, c.Column)
	var out struct {
		Miss      string `json:"miss"`
		Ambiguous int    `json:"ambiguous"`
		Tables    int    `json:"tables"`
		Text      string `json:"text"`
		Truncated bool   `json:"truncated"`
	}
	in := "the page's tables"
	if c.Table != nil {
		el, err := w.locateAny(ctx, t, *c.Table, false)
		if err != nil {
			return scoped{}, err
		}
		in = el.Role + " " + quote(el.Name)
		if err := w.call(ctx, t, el, cellFn, &out, c.Row, c.Column, budgets.AssertCellRows, budgets.ReadTextChars); err != nil {
			return scoped{}, err
		}
	} else {
		args, err := json.Marshal([]any{c.Row, c.Column, budgets.AssertCellRows, budgets.ReadTextChars})
		if err != nil {
			return scoped{}, err
		}
		if err := w.evaluate(ctx, t, "("+cellFn+").apply(null, "+string(args)+")", &out); err != nil {
			return scoped{}, err
		}
	}
	notFound := func(msg string) error {
		return &notYet{code: transport.CodeElementNotFound, msg: msg, appeared: true}
	}
	switch {
	case out.Miss == "table":
		return scoped{}, notFound("no table")
	case out.Miss == "column":
		return scoped{}, notFound(fmt.Sprintf("no column headed %q in %s", c.Column, in))
	case out.Miss == "row":
		return scoped{}, notFound(fmt.Sprintf("no row with a cell %q under column %q in %s", c.Row, c.Column, in))
	case out.Ambiguous > 0:
		return scoped{}, transport.NewError(transport.OpAssert, transport.PhaseValidate, transport.CodeElementAmbiguous, transport.RetryNever, transport.NotAttempted,
			"%d rows have a cell containing %q in %s; give a cell's whole text, or the table", out.Ambiguous, c.Row, in).WithPath("request.cell.row")
	}
	return scoped{text: out.Text, truncated: out.Truncated, what: what}, nil
}

// asAssert gives an error from the shared element code (which speaks for act) the assert
// operation's name.
func asAssert(err error) error {
	var oe *transport.OperationError
	if errors.As(err, &oe) && oe.Operation != transport.OpAssert {
		cp := *oe
		cp.Operation = transport.OpAssert
		return &cp
	}
	return err
}
