package worker

import (
	"context"
	_ "embed"
	"strconv"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/policy"
)

//go:embed visible_text.js
var visibleTextJS string

// readScript is visible_text.js applied to the read budget.
var readScript = readScriptFor(budgets.ReadTextChars)

func readScriptFor(maxChars int) string {
	return "(" + visibleTextJS + ")(" + strconv.Itoa(maxChars) + ")"
}

type pageText struct {
	URL       string `json:"url"`
	Title     string `json:"title"`
	Text      string `json:"text"`
	Truncated bool   `json:"truncated"`
}

// readPage reads the page's visible text within the read budget. Once the worker masks a
// secret (typed, or handed over by maskSecrets) the page gives scrubSlack more, and the text
// is cut to the budget here, after the secret is masked (cutScrubbed): a secret straddling
// the budget's end is masked whole.
func (w *Worker) readPage(ctx context.Context, t *tab) (pageText, error) {
	var pt pageText
	slack := w.scrubSlack()
	script := readScript
	if slack > 0 {
		script = readScriptFor(budgets.ReadTextChars + slack)
	}
	if err := w.evaluate(ctx, t, script, &pt); err != nil {
		return pt, err
	}
	var cut bool
	pt.Text, cut = w.cutScrubbed(pt.Text, budgets.ReadTextChars)
	pt.Truncated = pt.Truncated || cut
	return pt, nil
}

var _ = handlesTab((*Worker).read)

// read returns what a person sees of the page's text, bounded by the read budget.
func (w *Worker) read(ctx context.Context, t *tab, r *transport.Read, _ policy.Policy) (transport.Result, error) {
	ctx, cancel := context.WithTimeout(ctx, budgets.ReadWait().Default)
	defer cancel()
	pt, err := w.readPage(ctx, t)
	if err != nil {
		return nil, w.cdpFailure(transport.OpRead, transport.NotAttempted, err)
	}
	return &transport.ReadResult{Tab: string(t.id), URL: pt.URL, Title: pt.Title, Text: pt.Text, Truncated: pt.Truncated, DocumentID: t.documentID()}, nil
}

// ReadScript is the fixed expression read evaluates, exported so a benchmark can time the
// same CDP work without the worker in between.
func ReadScript() string { return readScript }
