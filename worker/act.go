package worker

import (
	"context"
	"os"
	"path/filepath"
	"time"

	"github.com/mafredri/cdp/protocol/dom"
	"github.com/mafredri/cdp/protocol/input"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/policy"
	"github.com/fastbrowser/fastbrowser/worker/internal/outline"
)

var _ = handlesTab((*Worker).act)

// act performs one action on one element (press: or on the page's focused element) with
// real input events, then observes the state the action should change within the
// action-verification budget. Before the action it waits, within the same budget, for the
// target to be there and actionable (actwait.go, actionability.go); the action itself is
// never retried. A trial stops after the wait: nothing is dispatched, so it answers
// not_attempted.
func (w *Worker) act(ctx context.Context, t *tab, r *transport.Act, _ policy.Policy) (transport.Result, error) {
	defer w.acceptDialogs(t, r.Dialog, r.PromptText)()
	ctx, cancel := context.WithTimeout(ctx, transport.RequestBudget(ctx)) // the frame's timeoutMs, else 10 s
	defer cancel()
	tg, err := w.awaitTarget(ctx, t, r)
	if err != nil {
		return nil, err
	}
	el, st := tg.el, tg.st
	receipt := transport.Receipt{Action: r.Action}
	if el != nil {
		receipt.Ref, receipt.Role, receipt.Name = el.Ref, el.Role, el.Name
	}
	if r.Trial {
		receipt.Trial = true
		return &transport.ActResult{Tab: string(t.id), Receipt: receipt, MutationState: transport.NotAttempted, DocumentID: t.documentID()}, nil
	}
	var mut transport.MutationState
	nav := w.actNavigation(t, r) // actnav.go: a navigation the action starts is waited for
	defer nav.end()
	switch r.Action {
	case transport.ActClick, transport.ActDblclick:
		mut, err = w.clickWith(ctx, t, el, tg.at, pointerOf(r))
	case transport.ActHover:
		mut, err = w.hover(ctx, t, el, tg.at, pointerOf(r))
	case transport.ActFocus:
		mut, err = w.focus(ctx, t, el)
	case transport.ActBlur:
		mut, err = w.blur(ctx, t, el)
	case transport.ActCheck, transport.ActUncheck:
		mut, err = w.setChecked(ctx, t, el, st, tg.at, r.Action == transport.ActCheck, &receipt)
	case transport.ActType, transport.ActFill, transport.ActClear:
		text := r.Text
		if r.Action == transport.ActClear {
			text = transport.Literal("")
		}
		n := text.Len()
		receipt.TypedLength = &n
		if r.SecretText {
			w.rememberSecret(t, el.Key(), text.Value())
		}
		mut, err = w.typeText(ctx, t, el, text)
	case transport.ActSelect:
		mut, err = w.selectOption(ctx, t, el, r.Option, &receipt)
	case transport.ActPress:
		receipt.Key = r.Key
		mut, err = w.press(ctx, t, el, r.Key)
	case transport.ActUpload:
		receipt.Files = len(r.Files)
		mut, err = w.upload(ctx, t, el, r.Files)
	case transport.ActDragTo:
		mut, err = w.dragTo(ctx, t, el, tg.at, tg.to, pointerOf(r))
	case transport.ActScrollIntoView:
		mut, err = w.scrollIntoView(ctx, t, el)
	}
	if err == nil {
		err = nav.wait(ctx, mut)
	}
	if err != nil {
		return nil, err
	}
	return &transport.ActResult{Tab: string(t.id), Receipt: receipt, MutationState: mut, DocumentID: t.documentID()}, nil
}

// watchFn counts events of one type that reach the element, to tell whether our input
// landed on it.
const watchFn = `function (type) {
  const key = '__fastbrowser_' + type;
  this[key] = 0;
  this.addEventListener(type, () => { this[key]++; }, {capture: true});
  return true;
}`

const countFn = `function (type) { return this['__fastbrowser_' + type] || 0; }`

// landed reports whether an event of type reached the element after watch. A document that
// went away with the action (a link navigated) cannot say: that is unknown, not failure.
func (w *Worker) landed(ctx context.Context, t *tab, el *element, typ string) bool {
	var n int
	if err := w.call(ctx, t, el, countFn, &n, typ); err != nil {
		return false
	}
	return n > 0
}

func (w *Worker) setChecked(ctx context.Context, t *tab, el *element, st elementState, at point, want bool, rc *transport.Receipt) (transport.MutationState, error) {
	if st.Checked == want {
		rc.Checked = boolString(want)
		return transport.Verified, nil // already so: nothing to do, nothing done
	}
	if _, err := w.click(ctx, t, el, at); err != nil {
		return "", err
	}
	got, ok := w.pollState(ctx, t, el, func(s elementState) bool { return s.Checked == want })
	rc.Checked = boolString(got.Checked)
	if ok {
		return transport.Verified, nil
	}
	return transport.Unknown, nil
}

// pollState re-reads the element until cond holds or the verification budget ends.
func (w *Worker) pollState(ctx context.Context, t *tab, el *element, cond func(elementState) bool) (elementState, bool) {
	ctx, cancel := context.WithTimeout(ctx, budgets.ActionVerification().Default)
	defer cancel()
	for {
		st, err := w.readState(ctx, t, el)
		if err == nil && cond(st) {
			return st, true
		}
		select {
		case <-ctx.Done():
			return st, false
		case <-time.After(budgets.ActPoll):
		}
	}
}

func boolString(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

// typeText replaces the field's content with text (type, fill, and clear with ""): focus,
// select what is there, insert it (or delete). The text never appears in a result or an
// error; only its length is checked and recorded.
func (w *Worker) typeText(ctx context.Context, t *tab, el *element, text *transport.Text) (transport.MutationState, error) {
	if err := el.c.DOM.Focus(ctx, dom.NewFocusArgs().SetBackendNodeID(el.Backend)); err != nil {
		return "", actError(transport.CodeElementNotActionable, "%s %s %q cannot take focus", el.Ref, el.Role, el.Name)
	}
	const selectAll = `function () {
  if (typeof this.select === 'function') { this.select(); return true; }
  const r = document.createRange(); r.selectNodeContents(this);
  const s = getSelection(); s.removeAllRanges(); s.addRange(r); return true;
}`
	if err := w.call(ctx, t, el, selectAll, nil); err != nil {
		return "", w.cdpFailure(transport.OpAct, transport.NotAttempted, err)
	}
	if text.Value() == "" {
		// Nothing to insert (clear, or fill with ""): delete the selection, as Playwright's
		// fill does.
		if err := w.pressKeys(ctx, t, "Delete"); err != nil {
			return "", err
		}
	} else if err := t.c.Input.InsertText(ctx, input.NewInsertTextArgs(text.Value())); err != nil {
		return "", w.cdpFailure(transport.OpAct, transport.Unknown, err)
	}
	const lengthIsFn = `function (want) { const v = 'value' in this ? this.value : this.textContent; return [...(v || '')].length === want; }`
	return w.verify(ctx, t, el, lengthIsFn, text.Len()), nil
}

// selectOption chooses the option whose visible label equals option, else whose value does.
// Like Playwright, it sets the selection and fires input and change: a native select's popup
// is not drivable by synthetic mouse input in headless Chromium.
func (w *Worker) selectOption(ctx context.Context, t *tab, el *element, option string, rc *transport.Receipt) (transport.MutationState, error) {
	const pickFn = `function (want) {
  const opts = Array.from(this.options);
  let found = opts.filter(o => o.label.trim() === want || o.text.trim() === want);
  if (found.length === 0) found = opts.filter(o => o.value === want);
  if (found.length !== 1) return {count: found.length};
  if (found[0].disabled) return {count: 1, disabled: true};
  this.value = found[0].value;
  found[0].selected = true;
  this.dispatchEvent(new Event('input', {bubbles: true}));
  this.dispatchEvent(new Event('change', {bubbles: true}));
  return {count: 1, label: found[0].label.trim(), selected: this.selectedIndex === found[0].index};
}`
	var res struct {
		Count    int    `json:"count"`
		Disabled bool   `json:"disabled"`
		Label    string `json:"label"`
		Selected bool   `json:"selected"`
	}
	if err := w.call(ctx, t, el, pickFn, &res, option); err != nil {
		return "", w.cdpFailure(transport.OpAct, transport.Unknown, err)
	}
	switch {
	case res.Count == 0:
		return "", actError(transport.CodeElementNotFound, "%s select %q has no option %q", el.Ref, el.Name, option)
	case res.Count > 1:
		return "", actError(transport.CodeElementAmbiguous, "%d options of %s select %q match %q", res.Count, el.Ref, el.Name, option)
	case res.Disabled:
		return "", actError(transport.CodeElementNotActionable, "option %q of %s select %q is disabled", option, el.Ref, el.Name)
	}
	rc.Option = res.Label
	if res.Selected {
		return transport.Verified, nil
	}
	return transport.Unknown, nil
}

// upload sets the file input's files. Paths were checked by the runtime (under its working
// directory); here they must exist as regular files.
func (w *Worker) upload(ctx context.Context, t *tab, el *element, files []string) (transport.MutationState, error) {
	abs := make([]string, len(files))
	for i, f := range files {
		p, err := filepath.Abs(f)
		if err != nil {
			return "", transport.Invalid(transport.OpAct, "request.files", "not a usable path")
		}
		if fi, err := os.Stat(p); err != nil || !fi.Mode().IsRegular() {
			return "", transport.Invalid(transport.OpAct, "request.files", "file %d is not a readable regular file", i)
		}
		abs[i] = p
	}
	if err := el.c.DOM.SetFileInputFiles(ctx, dom.NewSetFileInputFilesArgs(abs).SetBackendNodeID(el.Backend)); err != nil {
		return "", w.cdpFailure(transport.OpAct, transport.Unknown, err)
	}
	var n int
	if err := w.call(ctx, t, el, `function () { return this.files ? this.files.length : 0; }`, &n); err != nil {
		return transport.Unknown, nil
	}
	if n == len(files) {
		return transport.Verified, nil
	}
	return transport.Unknown, nil
}

// rememberSecret marks a field as holding a secret (masked in every screenshot from now on)
// and keeps the text, in memory only, to mask wherever the page echoes it. It is marked
// before typing: a failed or cut-short type may still have put part of it on the page.
func (w *Worker) rememberSecret(t *tab, k outline.NodeKey, text string) {
	t.mu.Lock()
	if t.secretNodes == nil {
		t.secretNodes = map[outline.NodeKey]bool{}
	}
	t.secretNodes[k] = true
	t.mu.Unlock()
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, s := range w.secrets {
		if s == text {
			return
		}
	}
	if len(w.secrets) < 64 && text != "" {
		w.secrets = append(w.secrets, text)
	}
	// Past 64 fields too: the runtime counts on the worker masking every text an act typed.
	w.rememberTyped(text)
}
