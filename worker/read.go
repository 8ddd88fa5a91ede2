package worker

import (
	"context"
	_ "embed"
	"strconv"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/runtime/policy"
	"github.com/fastbrowser/fastbrowser/transport"
)

//go:embed visible_text.js
var visibleTextJS string

// readScript is visible_text.js applied to the read budget.
var readScript = "(" + visibleTextJS + ")(" + strconv.Itoa(budgets.ReadTextChars) + ")"

type pageText struct {
	URL       string `json:"url"`
	Title     string `json:"title"`
	Text      string `json:"text"`
	Truncated bool   `json:"truncated"`
}

func (w *Worker) readPage(ctx context.Context, t *tab) (pageText, error) {
	var pt pageText
	err := w.evaluate(ctx, t, readScript, &pt)
	return pt, err
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
