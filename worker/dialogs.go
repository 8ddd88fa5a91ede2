package worker

import (
	"context"
	"sync"

	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/page"
	"github.com/mafredri/cdp/protocol/target"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/transport"
)

// dialogs answers JavaScript dialogs (alert, confirm, prompt, beforeunload) the moment they
// open, on the event goroutine of the tab that raised them: a dialog stalls its page — and
// the Input.dispatchMouseEvent that opened it — until it is answered, so it must never wait
// for an operation. They are dismissed unless the act in flight on that tab asked to accept.
// What was answered is reported by the operation in flight, or by the next one.
type dialogs struct {
	mu      sync.Mutex
	pending []transport.Dialog // answered, not yet reported
	// accepting is the tab whose act asked for "accept" while it runs ("" for none), and
	// promptText what its prompts get.
	accepting  target.ID
	promptText string
	// unloadRefused counts, per tab, the beforeunload dialogs dismissed: a navigation that
	// sees it change knows the page stayed.
	unloadRefused map[target.ID]int
}

// watchDialogs answers every dialog the target behind c opens (a tab, or a frame of its
// own process under one); t is the tab they belong to. Needs the Page domain enabled.
func (w *Worker) watchDialogs(ctx context.Context, c *cdp.Client, t *tab) error {
	opening, err := c.Page.JavascriptDialogOpening(ctx)
	if err != nil {
		return err
	}
	drain(opening, func(ev *page.JavascriptDialogOpeningReply) { w.answerDialog(c, t, ev) })
	return nil
}

// answerDialog answers one dialog. It is recorded before it is answered: the answer is what
// lets the page go on (a navigation a dismissed beforeunload cancels returns at once), and
// whoever sees the effect must find the record.
func (w *Worker) answerDialog(c *cdp.Client, t *tab, ev *page.JavascriptDialogOpeningReply) {
	d := &w.dialogs
	d.mu.Lock()
	accept := d.accepting == t.id
	args := page.NewHandleJavaScriptDialogArgs(accept)
	if accept && ev.Type == page.DialogTypePrompt {
		// Without a promptText the prompt gets its default value, as pressing OK would.
		text := d.promptText
		if text == "" && ev.DefaultPrompt != nil {
			text = *ev.DefaultPrompt
		}
		args.SetPromptText(text)
	}
	action := transport.DialogDismissed
	if accept {
		action = transport.DialogAccepted
	}
	d.mu.Unlock()
	rec := transport.Dialog{Type: string(ev.Type), Message: w.dialogMessage(ev.Message), Action: action}
	refused := ev.Type == page.DialogTypeBeforeunload && !accept
	d.mu.Lock()
	if len(d.pending) < budgets.DialogsReported {
		d.pending = append(d.pending, rec)
	}
	if refused {
		if d.unloadRefused == nil {
			d.unloadRefused = map[target.ID]int{}
		}
		d.unloadRefused[t.id]++
	}
	d.mu.Unlock()
	ctx, cancel := w.callContext()
	defer cancel()
	if err := c.Page.HandleJavaScriptDialog(ctx, args); err != nil {
		// The dialog went away first (its frame navigated or closed).
		w.log.Printf("answer %s dialog: %v", ev.Type, err)
	}
	if refused {
		t.update(func() {}) // wake a navigation waiting on this tab
	}
}

// dialogMessage bounds a dialog's message (clipScrubbed: a cut must not split a secret).
func (w *Worker) dialogMessage(msg string) string {
	return w.clipScrubbed(msg, budgets.DialogMessageChars)
}

// acceptDialogs makes the dialogs tab t opens accepted until the returned func is called (an
// act's "dialog":"accept"); any other answer leaves them dismissed.
func (w *Worker) acceptDialogs(t *tab, answer, promptText string) func() {
	if answer != transport.DialogAccept {
		return func() {}
	}
	d := &w.dialogs
	d.mu.Lock()
	d.accepting, d.promptText = t.id, promptText
	d.mu.Unlock()
	return func() {
		d.mu.Lock()
		d.accepting, d.promptText = "", ""
		d.mu.Unlock()
	}
}

// unloadMark is the count of beforeunload dialogs dismissed on tab t so far; unloadRefused
// says whether one was dismissed since the mark.
func (w *Worker) unloadMark(t *tab) int {
	w.dialogs.mu.Lock()
	defer w.dialogs.mu.Unlock()
	return w.dialogs.unloadRefused[t.id]
}

func (w *Worker) unloadRefused(t *tab, mark int) bool { return w.unloadMark(t) != mark }

// navigationRefused is the error of a navigation or reload the page's beforeunload dialog
// stopped: the dismissed dialog kept the page. The page's handler ran, so the page's state
// is unknown; the same call would be refused again.
func navigationRefused(op string) error {
	return transport.NewError(op, transport.PhaseExecute, transport.CodeNavigationFailed, transport.RetryNever, transport.Unknown,
		"the page's beforeunload dialog was dismissed; the navigation did not happen (an act with \"dialog\":\"accept\" can leave the page, closeTab can close it)")
}

// reportDialogs puts the dialogs answered since the previous operation's report on this
// operation's result or error. captureEvidence leaves them for the next operation, as it
// leaves refused requests.
func (w *Worker) reportDialogs(op transport.Operation, res transport.Result, err error) (transport.Result, error) {
	if transport.SpecOf(op).Witness {
		return res, err
	}
	w.dialogs.mu.Lock()
	answered := w.dialogs.pending
	w.dialogs.pending = nil
	w.dialogs.mu.Unlock()
	if len(answered) == 0 {
		return res, err
	}
	if err != nil {
		oe := transport.AsOperationError(op.OpName(), err)
		oe.Dialogs = append(oe.Dialogs, answered...)
		return nil, oe
	}
	transport.SetDialogs(res, answered)
	return res, nil
}
