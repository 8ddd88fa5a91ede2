package outline

import (
	"github.com/mafredri/cdp/protocol/accessibility"
	"github.com/mafredri/cdp/protocol/dom"
)

// node is one outline node before budgets: the whole page, compacted.
type node struct {
	role     string
	name     string // folded, free of field values; cut only when emitted
	text     string
	level    int
	checked  string
	selected string
	options  []string
	href     string
	disabled bool
	required bool
	more     int

	// backend is the node's DOM node: set for what an act or an assert can target (controls,
	// and containers, headings, live regions and rows), 0 for text and what was hoisted.
	backend dom.BackendNodeID
	session string // Frame.Session of the frame the node is in
	action  bool   // gets a ref
	header  bool   // a table row of column headers
	shape   string

	// textKey groups a StaticText with its neighbours into one line of text: the inline
	// context it is in (a paragraph, heading, list item, label, cell, link, or a wrapper
	// with text of its own), else its AX parent. textParent is its AX parent: texts of one
	// parent are joined as they are ("Hello ", "bold"), texts of different parents with a
	// space, since the AX tree does not say whether the element between them was inline.
	textKey, textParent accessibility.AXNodeID

	children []*node
}

func (n *node) isText() bool { return n.role == "text" }
