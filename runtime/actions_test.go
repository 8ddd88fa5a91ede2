package runtime_test

import (
	"testing"

	"github.com/fastbrowser/fastbrowser/transport"
)

// Double-click to edit: dblclick opens the editor, fill and blur save; a second edit is
// cancelled with Escape.
func TestActDblclickEditBlurEscape(t *testing.T) {
	t.Parallel()
	rt := openPage(t, "/actions")
	actOK(t, rt, transport.Act{Action: transport.ActDblclick, Target: byRole("button", "Groceries")})
	res := actOK(t, rt, transport.Act{Action: transport.ActFill, Target: byRole("textbox", "Edit title"), Text: transport.Literal("Hardware")})
	if res.Receipt.TypedLength == nil || *res.Receipt.TypedLength != 8 {
		t.Fatalf("fill receipt %+v", res.Receipt)
	}
	actOK(t, rt, transport.Act{Action: transport.ActBlur, Target: byRole("textbox", "Edit title")})
	sees(t, rt, "saved Hardware")

	actOK(t, rt, transport.Act{Action: transport.ActDblclick, Target: byRole("button", "Hardware")})
	actOK(t, rt, transport.Act{Action: transport.ActFill, Target: byRole("textbox", "Edit title"), Text: transport.Literal("Nope")})
	actOK(t, rt, transport.Act{Action: transport.ActPress, Target: byRole("textbox", "Edit title"), Key: "Escape"})
	sees(t, rt, "cancelled")
	actOK(t, rt, transport.Act{Action: transport.ActClick, Target: byRole("button", "Hardware")}) // still its name
}

// press with modifiers: Control+A selects the field's text, so the next key replaces it;
// clear empties it; Shift+Tab with no target moves focus back from the focused field.
func TestActPressModifiers(t *testing.T) {
	t.Parallel()
	rt := openPage(t, "/actions")
	notes := byRole("textbox", "Notes")
	value := func(want string) {
		t.Helper()
		if _, err := transport.Dispatch(bg, rt, transport.Assert{Kind: transport.AssertValue, Target: &notes, ValueMatch: transport.Is(want)}); err != nil {
			t.Fatalf("Notes value: %v", err)
		}
	}
	for _, k := range []string{"End", "Control+A", "z"} {
		if res := actOK(t, rt, transport.Act{Action: transport.ActPress, Target: notes, Key: k}); res.Receipt.Key != k {
			t.Fatalf("receipt %+v", res.Receipt)
		}
	}
	value("z")
	actOK(t, rt, transport.Act{Action: transport.ActFill, Target: notes, Text: transport.Literal("one two")})
	actOK(t, rt, transport.Act{Action: transport.ActPress, Target: notes, Key: "Control+Shift+ArrowLeft"})
	actOK(t, rt, transport.Act{Action: transport.ActPress, Target: notes, Key: "Delete"})
	value("one ")
	res := actOK(t, rt, transport.Act{Action: transport.ActClear, Target: notes})
	if res.Receipt.TypedLength == nil || *res.Receipt.TypedLength != 0 {
		t.Fatalf("clear receipt %+v", res.Receipt)
	}
	value("")

	actOK(t, rt, transport.Act{Action: transport.ActFocus, Target: byRole("textbox", "Second")})
	sees(t, rt, "focus second")
	page := actOK(t, rt, transport.Act{Action: transport.ActPress, Key: "Shift+Tab"})
	if page.Receipt.Ref != "" || page.Receipt.Key != "Shift+Tab" {
		t.Fatalf("page press receipt %+v", page.Receipt)
	}
	sees(t, rt, "blur second")
	sees(t, rt, "focus first")
	actOK(t, rt, transport.Act{Action: transport.ActBlur, Target: byRole("textbox", "First")})
	sees(t, rt, "blur first")
}

// Click options: a right click fires contextmenu, clickCount 3 a triple click, position
// aims from the top-left corner, modifiers are held for the click.
func TestActClickOptions(t *testing.T) {
	t.Parallel()
	rt := openPage(t, "/actions")
	actOK(t, rt, transport.Act{Action: transport.ActClick, Target: byRole("button", "Context"), Button: transport.ButtonRight})
	sees(t, rt, "contextmenu fired")
	actOK(t, rt, transport.Act{Action: transport.ActClick, Target: byRole("button", "Triple"), ClickCount: 3})
	sees(t, rt, "triple click")
	actOK(t, rt, transport.Act{Action: transport.ActClick, Target: byRole("button", "Position"), Position: &transport.Point{X: 150, Y: 5}})
	sees(t, rt, "clicked at x=150") // the centre is x=100
	actOK(t, rt, transport.Act{Action: transport.ActClick, Target: byRole("button", "Modified"), Modifiers: []string{"Shift", "ControlOrMeta"}})
	sees(t, rt, "modified click shift=true ctrl=true")
}

// scrollIntoView brings a button below the fold into the viewport (the page's own
// IntersectionObserver says so).
func TestActScrollIntoView(t *testing.T) {
	t.Parallel()
	rt := openPage(t, "/actions")
	neverSaid(t, rt, "far in view")
	actOK(t, rt, transport.Act{Action: transport.ActScrollIntoView, Target: byRole("button", "Far button")})
	sees(t, rt, "far in view")
}

// dragTo: an HTML5 sortable list reorders (the drop carries the page's own drag data), and a
// slider driven by mouse events follows the pointer to the mark it is dragged to.
func TestActDragTo(t *testing.T) {
	t.Parallel()
	rt := openPage(t, "/drag")
	to := byRole("option", "Cherry")
	actOK(t, rt, transport.Act{Action: transport.ActDragTo, Target: byRole("option", "Apple"), To: &to})
	sees(t, rt, "order Banana, Cherry, Apple (carried Apple)")

	mark := byRole("button", "Mark 80")
	actOK(t, rt, transport.Act{Action: transport.ActDragTo, Target: byRole("slider", "Volume"), To: &mark})
	sees(t, rt, "volume 80")
}
