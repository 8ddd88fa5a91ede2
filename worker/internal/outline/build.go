package outline

import "github.com/fastbrowser/fastbrowser/transport"

// Build turns frames' accessibility trees into the bounded outline. It is pure: no CDP, no
// I/O; the only call out is Options.RefFor.
func Build(frames []Frame, opts Options) Outline {
	c := newConverter(frames, opts.PageURL)
	all := c.convert()
	// Judged before collapsing, which drops the text of summarised records.
	botCheck := c.robot || anyChallenge(all)
	tree := collapse(contentFirst(all))
	e := &emitter{opts: opts}
	nodes := e.emit(tree, 1)
	truncated := e.truncated
	for _, f := range frames {
		truncated = truncated || f.Partial
	}
	return Outline{
		Nodes:     nodes,
		Text:      transport.OutlineText(nodes, truncated),
		Truncated: truncated,
		Elements:  e.elements,
		password:  c.password,
		botCheck:  botCheck,
	}
}
