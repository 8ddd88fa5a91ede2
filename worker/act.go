package worker

import (
	"context"
	"fmt"
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

// act performs one action on one element with real input events, then observes the state
// the action should change within the action-verification budget. Before the action it
// waits, within the same budget, for the target to be there and actionable (actwait.go);
// the action itself is never retried.
func (w *Worker) act(ctx context.Context, t *tab, r *transport.Act, _ policy.Policy) (transport.Result, error) {
	defer w.acceptDialogs(t, r.Dialog, r.PromptText)()
	ctx, cancel := context.WithTimeout(ctx, transport.RequestBudget(ctx)) // the frame's timeoutMs, else 10 s
	defer cancel()
	if err := notYetBuilt(r); err != nil {
		return nil, err
	}
	tg, err := w.awaitTarget(ctx, t, r)
	if err != nil {
		return nil, err
	}
	el, st := tg.el, tg.st
	receipt := transport.Receipt{Action: r.Action, Ref: el.Ref, Role: el.Role, Name: el.Name}
	var mut transport.MutationState
	nav := w.actNavigation(t, r) // actnav.go: a navigation the action starts is waited for
	defer nav.end()
	switch r.Action {
	case transport.ActClick:
		mut, err = w.click(ctx, t, el, tg.at)
	case transport.ActCheck, transport.ActUncheck:
		mut, err = w.setChecked(ctx, t, el, st, tg.at, r.Action == transport.ActCheck, &receipt)
	case transport.ActType:
		n := r.Text.Len()
		receipt.TypedLength = &n
		if r.SecretText {
			w.rememberSecret(t, el.Key(), r.Text.Value())
		}
		mut, err = w.typeText(ctx, t, el, r.Text)
	case transport.ActSelect:
		mut, err = w.selectOption(ctx, t, el, r.Option, &receipt)
	case transport.ActPress:
		receipt.Key = r.Key
		mut, err = w.press(ctx, t, el, r.Key)
	case transport.ActUpload:
		receipt.Files = len(r.Files)
		mut, err = w.upload(ctx, t, el, r.Files)
	}
	if err == nil {
		err = nav.wait(ctx, mut)
	}
	if err != nil {
		return nil, err
	}
	return &transport.ActResult{Tab: string(t.id), Receipt: receipt, MutationState: mut, DocumentID: t.documentID()}, nil
}

// actionable refuses, before anything is dispatched, an element the action cannot use. What
// may change while the act waits (attached, visible, enabled, editable) is a *notYet; what
// the element is (not a checkbox, not a select, a radio to uncheck) is refused at once. A
// ref's element that left the page cannot come back.
func actionable(r *transport.Act, el *element, st elementState) error {
	switch {
	case !st.Connected && r.Target.Ref != "":
		return actError(transport.CodeElementNotFound, "%s is no longer in the page", el.Ref)
	case !st.Connected:
		return &notYet{code: transport.CodeElementNotFound, msg: fmt.Sprintf("%s is no longer in the page", el.Ref)}
	case !st.Visible && r.Action != transport.ActUpload:
		return notActionable(el, "is not visible")
	case !st.Enabled:
		return notActionable(el, "is disabled")
	case r.Action == transport.ActType && !st.Editable:
		return notActionable(el, "is not an editable text field")
	case (r.Action == transport.ActCheck || r.Action == transport.ActUncheck) && !st.Checkable:
		return actError(transport.CodeElementNotActionable, "%s %s %q is not a checkbox or radio", el.Ref, el.Role, el.Name)
	case r.Action == transport.ActUncheck && st.Type == "radio":
		return actError(transport.CodeElementNotActionable, "%s radio %q cannot be unchecked; check another option", el.Ref, el.Name)
	case r.Action == transport.ActSelect && st.Tag != "select":
		return actError(transport.CodeElementNotActionable, "%s %s %q is not a select", el.Ref, el.Role, el.Name)
	case r.Action == transport.ActUpload && !(st.Tag == "input" && st.Type == "file"):
		return actError(transport.CodeElementNotActionable, "%s %s %q is not a file input", el.Ref, el.Role, el.Name)
	}
	return nil
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

// click clicks at the element's click point that awaitTarget found free.
func (w *Worker) click(ctx context.Context, t *tab, el *element, at point) (transport.MutationState, error) {
	if err := w.call(ctx, t, el, watchFn, nil, "click"); err != nil {
		return "", w.cdpFailure(transport.OpAct, transport.NotAttempted, err)
	}
	if err := w.mouseClick(ctx, t, at.x, at.y); err != nil {
		return "", err
	}
	if w.landed(ctx, t, el, "click") {
		return transport.Verified, nil
	}
	return transport.Unknown, nil
}

// mouseClick dispatches move, press and release. From the press on, the page may have seen
// the input, so a failure is unknown.
func (w *Worker) mouseClick(ctx context.Context, t *tab, x, y float64) error {
	if err := t.c.Input.DispatchMouseEvent(ctx, input.NewDispatchMouseEventArgs("mouseMoved", x, y)); err != nil {
		return w.cdpFailure(transport.OpAct, transport.NotAttempted, err)
	}
	for _, typ := range []string{"mousePressed", "mouseReleased"} {
		args := input.NewDispatchMouseEventArgs(typ, x, y).SetButton(input.MouseButtonLeft).SetClickCount(1).SetButtons(1)
		if err := t.c.Input.DispatchMouseEvent(ctx, args); err != nil {
			return w.cdpFailure(transport.OpAct, transport.Unknown, err)
		}
	}
	return nil
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

// typeText replaces the field's content with text: focus, select what is there, insert. The
// text never appears in a result or an error; only its length is checked and recorded.
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
	if err := t.c.Input.InsertText(ctx, input.NewInsertTextArgs(text.Value())); err != nil {
		return "", w.cdpFailure(transport.OpAct, transport.Unknown, err)
	}
	const lengthFn = `function () { const v = 'value' in this ? this.value : this.textContent; return [...(v || '')].length; }`
	want := text.Len()
	ctx, cancel := context.WithTimeout(ctx, budgets.ActionVerification().Default)
	defer cancel()
	for {
		var n int
		if err := w.call(ctx, t, el, lengthFn, &n); err == nil && n == want {
			return transport.Verified, nil
		}
		select {
		case <-ctx.Done():
			return transport.Unknown, nil
		case <-time.After(budgets.ActPoll):
		}
	}
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

// keyDefs maps named keys to what Input.dispatchKeyEvent needs.
var keyDefs = map[string]struct {
	code string
	vk   int
	text string
}{
	"Enter": {"Enter", 13, "\r"}, "Tab": {"Tab", 9, ""}, "Escape": {"Escape", 27, ""},
	"Backspace": {"Backspace", 8, ""}, "Delete": {"Delete", 46, ""}, "Space": {"Space", 32, " "},
	"ArrowUp": {"ArrowUp", 38, ""}, "ArrowDown": {"ArrowDown", 40, ""}, "ArrowLeft": {"ArrowLeft", 37, ""},
	"ArrowRight": {"ArrowRight", 39, ""}, "Home": {"Home", 36, ""}, "End": {"End", 35, ""},
	"PageUp": {"PageUp", 33, ""}, "PageDown": {"PageDown", 34, ""},
}

// press focuses the element and sends one key down and up.
func (w *Worker) press(ctx context.Context, t *tab, el *element, key string) (transport.MutationState, error) {
	if err := el.c.DOM.Focus(ctx, dom.NewFocusArgs().SetBackendNodeID(el.Backend)); err != nil {
		return "", actError(transport.CodeElementNotActionable, "%s %s %q cannot take focus", el.Ref, el.Role, el.Name)
	}
	if err := w.call(ctx, t, el, watchFn, nil, "keydown"); err != nil {
		return "", w.cdpFailure(transport.OpAct, transport.NotAttempted, err)
	}
	k, named := keyDefs[key]
	keyName, text := key, key
	if named {
		text = k.text
		if key == "Space" {
			keyName = " "
		}
	}
	down := input.NewDispatchKeyEventArgs("keyDown").SetKey(keyName)
	up := input.NewDispatchKeyEventArgs("keyUp").SetKey(keyName)
	if named {
		down.SetCode(k.code).SetWindowsVirtualKeyCode(k.vk)
		up.SetCode(k.code).SetWindowsVirtualKeyCode(k.vk)
	}
	if text != "" {
		down.SetText(text)
	}
	if err := t.c.Input.DispatchKeyEvent(ctx, down); err != nil {
		return "", w.cdpFailure(transport.OpAct, transport.Unknown, err)
	}
	if err := t.c.Input.DispatchKeyEvent(ctx, up); err != nil {
		return "", w.cdpFailure(transport.OpAct, transport.Unknown, err)
	}
	if w.landed(ctx, t, el, "keydown") {
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

// notYetBuilt refuses what the protocol now describes and this worker does not do yet
// (issue 25 lands in steps): the new actions, options and locator kinds.
func notYetBuilt(r *transport.Act) error {
	switch r.Action {
	case transport.ActClick, transport.ActType, transport.ActSelect, transport.ActCheck, transport.ActUncheck, transport.ActPress, transport.ActUpload:
	default:
		return transport.Invalid(transport.OpAct, "request.action", "action %q is not built yet", r.Action)
	}
	if r.Target.IsZero() || r.Button != "" || r.ClickCount != 0 || r.Modifiers != nil || r.Position != nil || r.Force || r.Trial {
		return transport.Invalid(transport.OpAct, "request", "this act option is not built yet")
	}
	return nil
}
