package scenario

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/strictjson"
)

// Live is a scenario built one operation at a time, for the session host: each new
// operation is checked against the ones kept so far exactly as Load checks a file's (ids,
// references to earlier operations, budgets, requests), run the way Run runs one, and kept
// when it passed or was skipped. What is kept is what a session exports, so an exported file
// refers to nothing that is not in it.
//
// Live is not safe for concurrent use; the session host runs one command at a time.
type Live struct {
	ops     []Operation
	results []transport.Result
	initial string // the tab selected when the session opened
	// whenTurns: the receipts of the extract that judged the last Run's or Holds' when in
	// words (nil: none was judged, or it failed: its error holds them).
	whenTurns []transport.TurnReceipt
}

// NewLive starts an empty scenario whose "initial" tab reference names initial.
func NewLive(initial string) *Live { return &Live{initial: initial} }

// Kept is how many operations have been kept.
func (l *Live) Kept() int { return len(l.ops) }

// Check decodes one scenario-file operation entry strictly and validates it after the kept
// ones. Relative upload paths resolve against dir. A refusal is a *ValidationError whose
// path starts at the operation ("request.url", "when.kind"). References to earlier
// operations name them by id: the kept operations' indexes are not the session's.
func (l *Live) Check(raw []byte, dir string) (*Operation, error) {
	if len(raw) > budgets.ScenarioFileSize {
		return nil, fail("", fmt.Sprintf("operation larger than %d bytes", budgets.ScenarioFileSize))
	}
	var op Operation
	if err := strictjson.Decode(raw, &op); err != nil {
		return nil, fromStrict(err)
	}
	if op.Include != "" {
		return nil, fail("include", "a session runs operations, not includes")
	}
	if err := refusesIndexRefs(&op); err != nil {
		return nil, err
	}
	if len(l.ops) >= budgets.ScenarioOps {
		return nil, fail("", fmt.Sprintf("the session has kept %d operations, as many as a scenario file may hold", budgets.ScenarioOps))
	}
	op.dir, op.at = dir, len(l.ops)
	ops := append(append([]Operation(nil), l.ops...), op)
	ids := map[string]int{}
	for i, k := range l.ops {
		if k.ID != "" {
			ids[k.ID] = i
		}
	}
	i := len(ops) - 1
	if err := checkOperation(ops, i, ids, nil); err != nil {
		return nil, unprefix(err, i)
	}
	checked := ops[i]
	return &checked, nil
}

// Run runs op (from Check) after the kept operations: skipped, with no result and no error,
// when its when did not hold.
func (l *Live) Run(ctx context.Context, rt transport.Caller, op *Operation) (transport.Result, bool, error) {
	h := &opRun{}
	res, skipped, err := runOperation(op.requestBudget(ctx), rt, op, l.ops, l.results, l.initial, h)
	l.whenTurns = h.whenTurns
	return res, skipped, err
}

// WhenTurns are the turn receipts of the model's judgement of the last Run's or Holds' when
// in words, when it was judged and answered.
func (l *Live) WhenTurns() []transport.TurnReceipt { return l.whenTurns }

// Holds reads op's when (from Check) as Run reads it, without running op: true when it has
// none or it holds. For an operation whose element is picked only once its condition held
// (a session's upload into words), which then runs without the when.
func (l *Live) Holds(ctx context.Context, rt transport.Caller, op *Operation) (bool, error) {
	ok, turns, err := op.whenHolds(op.requestBudget(ctx), rt, l.ops, l.results, l.initial)
	l.whenTurns = turns
	return ok, err
}

// Keep appends op, which passed (res) or was skipped (nil).
func (l *Live) Keep(op *Operation, res transport.Result) {
	l.ops = append(l.ops, *op)
	l.results = append(l.results, res)
}

// refusesIndexRefs: in a session an earlier operation is named by id.
func refusesIndexRefs(op *Operation) error {
	if op.Context != nil && op.Context.Operation.Index != nil {
		return fail("context.operation.index", `in a session, name the earlier operation by its "id"`)
	}
	var probe struct {
		Tab    *TabRef `json:"tab"`
		Opener *TabRef `json:"opener"`
	}
	if len(op.Request) > 0 && json.Unmarshal(op.Request, &probe) == nil {
		for field, ref := range map[string]*TabRef{"tab": probe.Tab, "opener": probe.Opener} {
			if ref != nil && ref.Operation != nil && ref.Operation.Index != nil {
				return fail("request."+field+".operation.index", `in a session, name the earlier operation by its "id"`)
			}
		}
	}
	return nil
}

// unprefix makes a file-relative path ("operations[3].request.url") relative to the one
// operation.
func unprefix(err error, i int) error {
	ve, ok := err.(*ValidationError)
	if !ok {
		return err
	}
	out := *ve
	out.Path = strings.TrimPrefix(strings.TrimPrefix(ve.Path, fmt.Sprintf("operations[%d]", i)), ".")
	return &out
}
