package runtime

import (
	"context"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/transport"
)

// extractPage is what one extract shows its model and may be cited: the outline text
// (scoped, scrubbed, cut at a line boundary, each node's line numbered L1, L2, …) and, for
// each shown node's ref and line id, the texts a value cited to it may be copied from.
type extractPage struct {
	tab    string
	egress transport.Egress
	text   string
	// cites maps a shown ref to the folded texts of its node and of its shown descendants.
	cites map[string][]string
}

// observeForExtract takes the extract's one fresh observation, through call (the origin
// policy, tab handles and scrubbing apply as to any observe), and renders what the model is
// shown. It refuses before dispatch when less than the observation floor is left: a floor,
// not a wait.
func (r *Runtime) observeForExtract(ctx context.Context, req *transport.Extract, octx *transport.OperationContext, rec *transport.TurnReceipt) (*extractPage, error) {
	if err := observationFloor(ctx, transport.OpExtract, transport.NotAttempted, "an observation"); err != nil {
		return nil, err
	}
	start := time.Now()
	res, err := r.call(ctx, &transport.Observe{Tab: req.Tab, MaxNodes: budgets.ModelPageNodes}, octx)
	rec.ObserveMs = time.Since(start).Milliseconds()
	if err != nil {
		return nil, err
	}
	ob := res.(*transport.ObserveResult)
	nodes := ob.Nodes
	if req.Scope != "" {
		n := findRef(ob.Nodes, req.Scope)
		if n == nil {
			return nil, transport.NewError(transport.OpExtract, transport.PhaseExecute, transport.CodeElementNotFound, transport.RetryNever, transport.NotAttempted,
				"no element with ref %q in the tab's outline (refs come from the latest observe; observe again)", req.Scope).WithPath("request.scope")
		}
		nodes = []transport.OutlineNode{*n}
	}
	return r.renderExtractPage(ob, nodes), nil
}

// renderExtractPage is what a model mapping nodes (ob's outline or one subtree of it) is
// shown and may cite: scrubbed, cut at a line boundary, each line numbered.
func (r *Runtime) renderExtractPage(ob *transport.ObserveResult, nodes []transport.OutlineNode) *extractPage {
	text, lines := cutLines(r.secrets.Scrub(transport.OutlineText(nodes, ob.Truncated)), budgets.ModelPageChars)
	page := &extractPage{tab: ob.Tab, egress: ob.Egress, cites: map[string][]string{}}
	seen := 0
	for i := range nodes {
		page.collect(&nodes[i], &seen, lines)
	}
	page.text = numberLines(text, seen)
	return page
}

// numberLines puts each shown node's line id (L1, L2, …) at the start of its line, so a value
// read from static text, which has no ref, can cite the line it came from. Only the first
// nodes lines are nodes' (a "… cut" or "… truncated" line after them is not).
func numberLines(text string, nodes int) string {
	var b strings.Builder
	for i, line := range strings.SplitAfter(text, "\n") {
		if i < nodes {
			b.WriteString(lineID(i+1) + " ")
		}
		b.WriteString(line)
	}
	return b.String()
}

// lineID is the citation id of the nth line of the outline an extract showed.
func lineID(n int) string { return "L" + strconv.Itoa(n) }

// collect walks n in the outline's line order (one line per node, pre-order), records the
// cite texts of each node whose line is among the first lines shown, and returns the folded
// texts of n's shown subtree.
func (p *extractPage) collect(n *transport.OutlineNode, seen *int, lines int) []string {
	if *seen >= lines {
		return nil
	}
	*seen++
	line := *seen
	var texts []string
	// A link's address counts as its text as the outline shows it ("-> /p/kettle": a link to
	// the page's own site by its path), so a link field can cite the link it came from.
	for _, s := range append([]string{n.Name, n.Text, n.Selected, n.Href}, n.Options...) {
		if s != "" {
			texts = append(texts, foldText(s))
		}
	}
	for i := range n.Children {
		texts = append(texts, p.collect(&n.Children[i], seen, lines)...)
	}
	if n.Ref != "" {
		p.cites[n.Ref] = texts
	}
	p.cites[lineID(line)] = texts
	return texts
}

// findRef is the node with ref, in pre-order, or nil.
func findRef(nodes []transport.OutlineNode, ref string) *transport.OutlineNode {
	for i := range nodes {
		if nodes[i].Ref == ref {
			return &nodes[i]
		}
		if n := findRef(nodes[i].Children, ref); n != nil {
			return n
		}
	}
	return nil
}

// outlineCut ends an outline cut to the model's page bound.
const outlineCut = "… cut\n"

// cutLines bounds text to limit characters, cutting after the last whole line that fits
// (and saying so), and returns it with the number of whole lines it keeps.
func cutLines(text string, limit int) (string, int) {
	if utf8.RuneCountInString(text) <= limit {
		return text, strings.Count(text, "\n")
	}
	end, n := 0, 0
	for i := range text {
		if n == limit-utf8.RuneCountInString(outlineCut) {
			break
		}
		end = i
		n++
	}
	keep := text[:strings.LastIndexByte(text[:end+1], '\n')+1]
	return keep + outlineCut, strings.Count(keep, "\n")
}

// foldText folds case and runs of white space, so a value is matched as a reader sees it.
func foldText(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }
