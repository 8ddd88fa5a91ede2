package sessions

import (
	"bytes"
	"encoding/json"

	"github.com/fastbrowser/fastbrowser/transport"
)

// exportOp is the scenario-file operation an entry exports as: every element named by an
// outline ref (an act's, a step's, an assertion's or a when's "target", a dragTo's "to") named instead by
// its role and accessible name, exactly, so the file replays on a fresh page where refs
// mean nothing; an upload's files as the absolute paths that were sent. notUnique reports
// that some role+name matched more than one element of the page when it was recorded.
//
// The ref is resolved in the outline the person saw (the page before the operation); an
// act's receipt, which names the element it acted on, wins over it.
func exportOp(entry json.RawMessage, before pageView, seen refBook, receipt *transport.Receipt, uploads []string) (json.RawMessage, bool, []string) {
	var v map[string]any
	dec := json.NewDecoder(bytes.NewReader(entry))
	dec.UseNumber()
	if dec.Decode(&v) != nil {
		return entry, false, nil
	}
	notUnique := false
	var unresolved []string
	var walk func(x any, inRequest bool)
	walk = func(x any, inRequest bool) {
		switch t := x.(type) {
		case map[string]any:
			for k, c := range t {
				if tg, ok := c.(map[string]any); ok && (k == "target" || k == "to") { // to: dragTo's drop target
					if ref, ok := tg["ref"].(string); ok {
						role, name, found := seen.resolve(ref)
						if inRequest && receipt != nil && receipt.Ref == ref {
							role, name, found = receipt.Role, receipt.Name, true
						}
						if found && name != "" { // an element without a name cannot be named by it
							t[k] = map[string]any{"role": role, "name": name, "exact": true}
							if before.names[roleName{role, name}] > 1 {
								notUnique = true
							}
						} else {
							unresolved = append(unresolved, ref)
						}
						continue
					}
				}
				walk(c, inRequest)
			}
		case []any:
			for _, c := range t {
				walk(c, inRequest)
			}
		}
	}
	if req, ok := v["request"].(map[string]any); ok {
		walk(req, true)
		if len(uploads) > 0 {
			req["files"] = uploads
		}
	}
	for _, k := range []string{"when", "step"} {
		if c, ok := v[k]; ok {
			walk(c, k == "step")
		}
	}
	out, err := json.Marshal(v)
	if err != nil {
		return entry, notUnique, unresolved
	}
	return out, notUnique, unresolved
}
