package outline

import (
	"github.com/mafredri/cdp/protocol/accessibility"
	"github.com/mafredri/cdp/protocol/dom"

	"github.com/fastbrowser/fastbrowser/transport"
)

// Frame is one frame's accessibility tree as Chromium returned it.
type Frame struct {
	Nodes []accessibility.AXNode // Accessibility.getFullAXTree for this frame
	Owner dom.BackendNodeID      // the <iframe> element in the parent frame; 0 for the main frame

	// Session names the DevTools session the frame's backend node ids belong to: "" for the
	// tab's own, an out-of-process frame's target id for that frame and its same-process
	// children. Backend ids are unique only within one session, so a node is named by both.
	// OwnerSession is the session of Owner (the parent frame's).
	Session, OwnerSession string

	// Partial says Nodes is a bounded window of a larger tree (a huge page): the outline is
	// truncated whatever its budgets.
	Partial bool

	// Passwords lists the page's <input type=password> elements; only membership is read, so
	// one list for the whole page may be given to every frame. Chromium's AX tree gives a
	// password field the role textbox and, while it is empty, nothing else that tells it
	// apart, so the worker asks the DOM (DOM.performSearch for input[type="password" i]
	// finds them in every same-process frame at once). A password field holding a value is
	// recognised without it: Chromium reports the value masked.
	Passwords []dom.BackendNodeID
}

// Options are one outline's budgets and the worker's hooks.
type Options struct {
	MaxNodes, MaxDepth, MaxTextChars int // resolved budgets (> 0)

	// PageURL is the page's URL: links on its origin render as path and query, links
	// elsewhere as origin and path (never a query); fragments never.
	PageURL string

	// RefFor returns the worker's stable ref for an element. Build calls it once for each
	// element that gets a ref, in output order. Nil numbers them e1, e2, … in output order.
	RefFor func(NodeKey) string

	// Clip cuts a name, text or option label longer than budgets.OutlineNameChars (nil:
	// textclip.ClipChars); the worker's masks the session's typed secrets first.
	Clip Clip
}

// NodeKey names one DOM node of a tab: its session (Frame.Session) and backend node id.
type NodeKey struct {
	Session string
	Backend dom.BackendNodeID
}

// Element is one element an action can target.
type Element struct {
	Ref      string
	Backend  dom.BackendNodeID
	Session  string // Frame.Session of the frame it is in
	Role     string // the outline's role: "password" and "file" included
	Name     string
	Disabled bool
}

// Key names the element's DOM node.
func (e Element) Key() NodeKey { return NodeKey{Session: e.Session, Backend: e.Backend} }

// Outline is the bounded page outline.
type Outline struct {
	Nodes     []transport.OutlineNode
	Text      string // compact rendering (see the package doc)
	Truncated bool
	Elements  []Element // every node that got a ref, in output order

	// What Classify needs to know about the whole page, budgets aside.
	password, botCheck bool
}
