package scenario

import (
	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/transport"
)

// TabRef is a scenario file's data-only reference to a tab (DESIGN.md "Scenario file v1"):
//
//	{"source":"initial","target":"selected"}
//	{"source":"operation","operation":{"id":"tabs"}|{"index":3},"result":"selectedTab"|"popup"|"listedTab","index"?:0–31}
//
// The runner resolves it to the runtime's opaque handle when the operation runs.
type TabRef struct {
	Source    string `json:"source" required:"true"`
	Target    string `json:"target,omitempty"`
	Operation *OpRef `json:"operation,omitempty"`
	Result    string `json:"result,omitempty"`
	Index     *int   `json:"index,omitempty"`
}

// OpRef names an earlier operation by id or by index in "operations".
type OpRef struct {
	ID    string `json:"id,omitempty"`
	Index *int   `json:"index,omitempty"`
}

// producers maps each result a tab reference can name to the op that produces it (the
// table's TabResult).
var producers = func() map[string]string {
	m := map[string]string{}
	for _, s := range transport.Ops() {
		if s.TabResult != "" {
			m[s.TabResult] = s.Name
		}
	}
	return m
}()

// checkTabRef validates ref for operation i: earlier operations only, the right producer,
// index only with listedTab and within 0–31. It returns the referenced operation's index
// (-1 for the initial tab).
func checkTabRef(ref *TabRef, path string, i int, ops []Operation, ids map[string]int) (int, error) {
	switch ref.Source {
	case "initial":
		if ref.Target != "selected" {
			return 0, fail(path+".target", `expected "selected" for the initial tab`)
		}
		if ref.Operation != nil || ref.Result != "" || ref.Index != nil {
			return 0, fail(path, `an initial tab reference has only "source" and "target"`)
		}
		return -1, nil
	case "operation":
	default:
		return 0, fail(path+".source", `expected "initial" or "operation"`)
	}
	if ref.Target != "" {
		return 0, fail(path+".target", `"target" goes with source "initial"`)
	}
	if ref.Operation == nil {
		return 0, fail(path+".operation", `expected {"id": …} or {"index": …} naming an earlier operation`)
	}
	want, ok := producers[ref.Result]
	j, err := checkOpRef(ref.Operation, path+".operation", i, ops, ids, "")
	if err != nil {
		return 0, err
	}
	if !ok {
		return 0, fail(path+".result", `expected "selectedTab", "popup" or "listedTab"`)
	}
	if ops[j].Op != want {
		return 0, fail(path+".result", quote(ref.Result)+" comes from a "+want+" operation, not "+ops[j].Op)
	}
	if ref.Index != nil {
		if ref.Result != "listedTab" {
			return 0, fail(path+".index", `"index" goes with result "listedTab"`)
		}
		if *ref.Index < 0 || *ref.Index >= budgets.ListTabsMax {
			return 0, fail(path+".index", "expected an integer 0–31")
		}
	}
	return j, nil
}

// checkOpRef resolves a reference to an earlier operation by id or index; with op set, the
// referenced operation must be of that op.
func checkOpRef(o *OpRef, path string, i int, ops []Operation, ids map[string]int, op string) (int, error) {
	var j int
	switch {
	case o.ID != "" && o.Index != nil:
		return 0, fail(path, `give "id" or "index", not both`)
	case o.ID != "":
		k, ok := ids[o.ID]
		if !ok {
			return 0, fail(path+".id", "no operation has id "+quote(o.ID))
		}
		j = k
	case o.Index != nil:
		j = *o.Index
		if j < 0 || j >= len(ops) {
			return 0, fail(path+".index", "no operation at that index")
		}
	default:
		return 0, fail(path, `expected {"id": …} or {"index": …}`)
	}
	if j >= i {
		return 0, fail(path, "a reference must name an earlier operation")
	}
	if op != "" && ops[j].Op != op {
		return 0, fail(path, "the referenced operation is "+ops[j].Op+", not "+op)
	}
	return j, nil
}
