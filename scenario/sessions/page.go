package sessions

import (
	"context"

	"github.com/fastbrowser/fastbrowser/transport"
)

// pageView is what the host last saw of the selected page: what a command prints as the
// page after it, and the outline in which a by-ID target ("e12") is resolved to the role
// and accessible name an export replays.
type pageView struct {
	Page
	refs  map[string]transport.OutlineNode // ref → its node
	names map[roleName]int                 // how many outline elements have each role+name
}

type roleName struct{ role, name string }

// look observes the selected tab. A page that cannot be read is a page with an error,
// never a failed command.
func (h *Host) look(ctx context.Context) pageView {
	ob, err := transport.Dispatch(ctx, h.rt, transport.Observe{})
	if err != nil {
		v := h.page // what was seen before is still the best knowledge of where it was
		v.Outline, v.Error = "", AsError(err)
		return v
	}
	v := pageView{Page: Page{Tab: ob.Tab, URL: ob.URL, Title: ob.Title, PageClass: ob.PageClass, Truncated: ob.Truncated, Outline: ob.Text},
		refs: map[string]transport.OutlineNode{}, names: map[roleName]int{}}
	v.index(ob.Nodes)
	return v
}

func (v *pageView) index(nodes []transport.OutlineNode) {
	for _, n := range nodes {
		if n.Ref != "" {
			v.refs[n.Ref] = n
		}
		if n.Name != "" {
			v.names[roleName{n.Role, n.Name}]++
		}
		v.index(n.Children)
	}
}
