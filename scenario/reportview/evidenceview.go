package reportview

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"html/template"
	"image/png"

	"github.com/fastbrowser/fastbrowser/artifacts"
	"github.com/fastbrowser/fastbrowser/transport"
)

// evidenceView is one failed operation's evidence, each part decoded from verified bytes.
type evidenceView struct {
	Screenshots []screenshotView
	Console     []consoleView
	Network     []networkView
	Outlines    []outlineView
	Refused     []refusedView // files listed in the report that are not shown, and why
	Unavailable []transport.UnavailablePart
}

type screenshotView struct {
	Path          string
	URI           template.URL // data:image/png;base64,… built only from verified PNG bytes
	Width, Height int
	Truncated     bool
}

type consoleView struct {
	Path    string
	Summary transport.ConsoleSummary
}

type networkView struct {
	Path    string
	Summary transport.NetworkSummary
}

type outlineView struct {
	Path   string
	Result transport.ObserveResult
}

type refusedView struct {
	Kind   string
	Path   string
	Reason string
}

func loadEvidence(dir string, metas []artifacts.Meta, unavailable []transport.UnavailablePart) *evidenceView {
	ev := &evidenceView{Unavailable: unavailable}
	for _, m := range metas {
		if reason := ev.add(dir, m); reason != "" {
			ev.Refused = append(ev.Refused, refusedView{Kind: m.Kind, Path: m.Path, Reason: reason})
		}
	}
	return ev
}

// add shows m if its file verifies and decodes as its kind; otherwise it returns why not.
func (ev *evidenceView) add(dir string, m artifacts.Meta) string {
	wantType := "application/json"
	if m.Kind == transport.PartScreenshot {
		wantType = "image/png"
	}
	switch m.Kind {
	case transport.PartScreenshot, transport.PartConsole, transport.PartNetwork, transport.PartOutline:
	default:
		return "unknown evidence kind"
	}
	if m.ContentType != wantType {
		return "unexpected content type"
	}
	data, err := readEvidence(dir, m)
	if err != nil {
		return err.Error()
	}
	switch m.Kind {
	case transport.PartScreenshot:
		// Decoding the header proves the bytes are a PNG before they become an image URI.
		cfg, err := png.DecodeConfig(bytes.NewReader(data))
		if err != nil {
			return "not a PNG"
		}
		ev.Screenshots = append(ev.Screenshots, screenshotView{Path: m.Path, Width: cfg.Width, Height: cfg.Height,
			Truncated: m.Truncated,
			URI:       template.URL("data:image/png;base64," + base64.StdEncoding.EncodeToString(data))})
	case transport.PartConsole:
		var s transport.ConsoleSummary
		if json.Unmarshal(data, &s) != nil {
			return "not a console summary"
		}
		ev.Console = append(ev.Console, consoleView{Path: m.Path, Summary: s})
	case transport.PartNetwork:
		var s transport.NetworkSummary
		if json.Unmarshal(data, &s) != nil {
			return "not a network summary"
		}
		ev.Network = append(ev.Network, networkView{Path: m.Path, Summary: s})
	case transport.PartOutline:
		var r transport.ObserveResult
		if json.Unmarshal(data, &r) != nil {
			return "not an outline"
		}
		ev.Outlines = append(ev.Outlines, outlineView{Path: m.Path, Result: r})
	}
	return ""
}
