package strictjson

import "github.com/fastbrowser/fastbrowser/budgets"

// maxDepth bounds nesting so that a hostile frame cannot exhaust the stack of the
// recursive passes (scan refuses the level past it before descending); no protocol frame
// or scenario file comes close to it.
const maxDepth = budgets.JSONNesting

type valueKind uint8

const (
	kindNull valueKind = iota
	kindBool
	kindNumber
	kindString
	kindArray
	kindObject
)

var kindNames = [...]string{
	kindNull:   "null",
	kindBool:   "boolean",
	kindNumber: "number",
	kindString: "string",
	kindArray:  "array",
	kindObject: "object",
}

func (k valueKind) String() string { return kindNames[k] }

// tree is the scanned input. It lets the type check run completely before the fill
// writes anything, and gives Unmarshalers the exact bytes of their value. All values
// live in one slice, each container's children side by side, so that a frame costs a
// handful of allocations rather than one per container.
type tree struct {
	nodes []value
}

// value is one scanned JSON value.
type value struct {
	kind  valueKind
	raw   []byte // the value's bytes in the input, without surrounding whitespace
	key   string // the decoded key, when the value is an object member
	first int    // arrays and objects: the index of the first child in tree.nodes
	n     int    // arrays and objects: the number of children
}

// children returns an array's elements or an object's members, in input order.
func (t *tree) children(v *value) []value {
	return t.nodes[v.first : v.first+v.n]
}

// text returns a string value's decoded contents. The scan has validated the string,
// so decoding cannot fail; the scan does not keep the result because most strings are
// decoded only once, straight into the destination.
func text(v *value) string {
	s := scanner{data: v.raw}
	str, _ := s.string("", true)
	return str
}
