package runtime

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/fastbrowser/fastbrowser/runtime/model"
	"github.com/fastbrowser/fastbrowser/transport"
)

// The scripted model server answers one tool call per reply; an answer with several is
// decided here.
func TestExtractRefusesSeveralCalls(t *testing.T) {
	schema, err := transport.CompileExtractSchema([]byte(`{"type":"object"}`))
	if err != nil {
		t.Fatal(err)
	}
	call := model.ToolCall{Name: transport.ToolExtract, Arguments: json.RawMessage(`{"data":{},"citations":{}}`)}
	page := &extractPage{cites: map[string][]string{}}
	if _, _, err := checkExtractReply(model.Reply{Calls: []model.ToolCall{call}}, schema, page); err != nil {
		t.Fatalf("one call: %v", err)
	}
	_, _, err = checkExtractReply(model.Reply{Calls: []model.ToolCall{call, call}}, schema, page)
	if oe := transport.AsOperationError("", err); oe == nil || oe.Code != transport.CodeTaskRefused || !strings.Contains(oe.Message, "2 tool calls") {
		t.Fatalf("two calls: %v", err)
	}
}

// TestExtractCitesOnlyWhatWasShown: cut to the page bound at a line boundary, the outline's
// nodes past the cut cannot be cited, and a node's cite texts are its own and its shown
// descendants'.
func TestExtractCitesOnlyWhatWasShown(t *testing.T) {
	nodes := []transport.OutlineNode{
		{Ref: "e1", Role: "link", Name: "Blue  Kettle", Children: []transport.OutlineNode{{Role: "text", Text: "Price: $19.99"}}},
		{Ref: "e2", Role: "link", Name: "Red Mug"},
	}
	full := transport.OutlineText(nodes, false)
	first := strings.Index(full, "\n") + 1 + strings.Index(full[strings.Index(full, "\n")+1:], "\n") + 1 // two lines
	text, lines := cutLines(full, utf8.RuneCountInString(full[:first])+utf8.RuneCountInString(outlineCut))
	if lines != 2 || text != full[:first]+outlineCut {
		t.Fatalf("cut to %d lines: %q", lines, text)
	}
	p := &extractPage{cites: map[string][]string{}}
	seen := 0
	for i := range nodes {
		p.collect(&nodes[i], &seen, lines)
	}
	if _, ok := p.cites["e2"]; ok {
		t.Error("e2, past the cut, may be cited")
	}
	if got := strings.Join(p.cites["e1"], "|"); got != "blue kettle|price: $19.99" {
		t.Errorf("e1's texts %q", got)
	}
	if !occursIn(foldText("PRICE:\n$19.99"), p.cites["e1"]) || !occursIn("kettle price", p.cites["e1"]) || occursIn("red mug", p.cites["e1"]) {
		t.Error("matching is not case- and space-folded over the node's texts")
	}
	if text, lines := cutLines(full, 1000); text != full || lines != 3 {
		t.Errorf("an outline within the bound was changed: %q %d", text, lines)
	}
}
