package outline_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/mafredri/cdp/protocol/accessibility"
	"github.com/mafredri/cdp/protocol/dom"

	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/worker/internal/outline"
)

func build(frames []outline.Frame) outline.Outline { return outline.Build(frames, opts(nil)) }

// requireText compares an outline's text with want, given as lines.
func requireText(t *testing.T, o outline.Outline, want ...string) {
	t.Helper()
	if got, w := o.Text, strings.Join(want, "\n")+"\n"; got != w {
		t.Errorf("outline:\n%s\nwant:\n%s", got, w)
	}
}

func requireNoSecret(t *testing.T, o outline.Outline, secrets ...string) {
	t.Helper()
	js, _ := json.Marshal(o.Nodes)
	for _, s := range secrets {
		if strings.Contains(o.Text, s) || strings.Contains(string(js), s) {
			t.Errorf("outline holds %q:\n%s\n%s", s, o.Text, js)
		}
	}
}

func TestValuesNeverShown(t *testing.T) {
	pw := field("textbox", "Password", "••••••").be(7)
	oldPw := field("textbox", "Old password", "REAL-PASSWORD-VALUE").be(8) // as older Chromium reports it
	readonly := n("textbox", "Read only", n("generic", "", text("READONLY-VALUE"))).val("READONLY-VALUE")
	frames := doc(
		field("textbox", "Full name", "TEXTBOX-VALUE"),
		pw, oldPw, readonly,
		field("searchbox", "Search", "SEARCH-VALUE"),
		field("spinbutton", "Quantity", "").val(42).prop("valuetext", "42"),
		field("combobox", "City", "COMBO-VALUE"),
		n("generic", "Notes", text("RICH-TEXT-VALUE").prop("editable", "richtext")).val("RICH-TEXT-VALUE").prop("editable", "richtext"),
		n("Date", "Day", n("spinbutton", "Month", text("2024"))).val("2024-01-02"),
	)
	frames[0].Passwords = []dom.BackendNodeID{8}
	o := build(frames)
	requireText(t, o,
		`textbox [e1] "Full name"`,
		`password [e2] "Password"`,
		`password [e3] "Old password"`,
		`textbox [e4] "Read only"`,
		`searchbox [e5] "Search"`,
		`spinbutton [e6] "Quantity"`,
		`combobox [e7] "City"`,
		`textbox [e8] "Notes"`,
		`date [e9] "Day"`,
	)
	requireNoSecret(t, o, "VALUE", "••", "42", "2024")
	if got := outline.Classify(o, "Sign in", 200); got != transport.PageLogin {
		t.Errorf("Classify = %q, want login", got)
	}
}

// A name computed from contents or a label embeds the values of fields inside them
// (Chromium names a <td> holding an <input> after the input's text): such names are
// recomputed from the elements' own text.
func TestNamesWithoutFieldValues(t *testing.T) {
	contents := accessibility.AXValueSource{Type: "contents", Value: value("computedString", "x")}
	label := n("LabelText", "", text("Email "), field("textbox", "Reply to", "LABEL-SECRET")).be(50)
	byLabel := field("textbox", "Email LABEL-SECRET", "").from(accessibility.AXValueSource{
		Type: "relatedElement", Value: value("computedString", "x"),
		NativeSourceValue: &accessibility.AXValue{Type: "nodeList", RelatedNodes: []accessibility.AXRelatedNode{{BackendDOMNodeID: 50}}},
	})
	o := build(doc(
		n("button", "Press BUTTON-SECRET", text("Press "), field("textbox", "", "BUTTON-SECRET")).from(contents),
		n("heading", "Title HEADING-SECRET", text("Title "), field("textbox", "t", "HEADING-SECRET")).level(2).from(contents),
		n("button", "Has no field BUTTON-SECRET").from(contents), // no field inside: the name stands
		label, byLabel,
		n("table", "",
			n("row", "",
				n("cell", "Qty CELL-SECRET", text("Qty "), field("textbox", "q", "CELL-SECRET")),
				n("cell", "2", text("2"))),
		),
	))
	requireText(t, o,
		`button [e1] "Press"`, // a button's contents are presentational: the field inside is not outlined
		`heading[2] "Title"`,
		`  textbox [e2] "t"`,
		`button [e3] "Has no field BUTTON-SECRET"`,
		`textbox [e4] "Reply to"`,
		`textbox [e5] "Email"`,
		`table`,
		`  row: Qty | 2`,
		`    textbox [e6] "q"`,
	)
	requireNoSecret(t, o, "HEADING-SECRET", "LABEL-SECRET", "CELL-SECRET")
}

func TestHoistingAndIgnored(t *testing.T) {
	o := build(doc(
		wrap(wrap(n("generic", "", n("paragraph", "", text("Deep "), n("generic", "", text("text")))))),
		n("none", "", n("presentation", "", n("button", "Go", text("Go")))),
		// An ignored container whose children are not ignored: they are kept.
		&ax{role: "generic", ignored: true, kids: []*ax{n("link", "Kept").url("http://site.test/k")}},
		// An ignored subtree (aria-hidden): its ignored text is left out.
		&ax{role: "generic", ignored: true, kids: []*ax{{role: "StaticText", name: "HIDDEN", ignored: true}}},
		n("InlineTextBox", "dropped"),
	))
	requireText(t, o,
		`text "Deep text"`,
		`button [e1] "Go"`,
		`link [e2] "Kept" -> /k`,
	)
	if len(o.Nodes) != 3 {
		t.Errorf("nodes = %d, want 3", len(o.Nodes))
	}
}

func TestRepeatedTextDropped(t *testing.T) {
	o := build(doc(
		n("heading", "Welcome back", text("Welcome "), text("back")).level(1),
		n("link", "Home", n("image", "Home"), text("Home")).url("http://site.test/"),
		n("LabelText", "", text("Username ")), field("textbox", "Username", ""),
		n("table", "Orders", n("caption", "", text("Orders")), n("row", "", n("cell", "a", text("a")))),
	))
	requireText(t, o,
		`heading[1] "Welcome back"`,
		`link [e1] "Home" -> /`,
		`textbox [e2] "Username"`,
		`table "Orders"`,
		`  row: a`,
	)
}

func TestLandmarksAfterContent(t *testing.T) {
	o := build(doc(
		n("contentinfo", "", text("Footer")),
		n("navigation", "Menu", n("link", "A").url("http://site.test/a")),
		n("banner", "", n("heading", "Site", text("Site")).level(1)),
		n("main", "", n("heading", "Article", text("Article")).level(2)),
		n("complementary", "", text("Aside")),
		n("navigation", "Second", text("Nav 2")),
		text("Loose text"),
	))
	requireText(t, o,
		`main`,
		`  heading[2] "Article"`,
		`text "Loose text"`,
		`banner`,
		`  heading[1] "Site"`,
		`navigation "Menu"`,
		`  link [e1] "A" -> /a`,
		`navigation "Second"`,
		`  text "Nav 2"`,
		`complementary`,
		`  text "Aside"`,
		`contentinfo`,
		`  text "Footer"`,
	)
}

func rows(count int) []*ax {
	out := []*ax{n("row", "", n("columnheader", "Name", text("Name")), n("columnheader", "Total", text("Total")))}
	for i := 1; i <= count; i++ {
		s := string(rune('0' + i))
		out = append(out, n("row", "", n("cell", "", text("Item "+s)), n("cell", "", text(s+".00"))))
	}
	return out
}

func TestCollapse(t *testing.T) {
	o := build(doc(n("table", "Six", wrap(rows(6)...))))
	requireText(t, o,
		`table "Six"`,
		`  row: Name | Total`,
		`  row: Item 1 | 1.00`,
		`  row: Item 2 | 2.00`,
		`  row: Item 3 | 3.00`,
		`  … 3 more rows`,
	)
	if more := o.Nodes[0].Children[4]; more.Role != "row" || more.More != 3 {
		t.Errorf("summary node = %+v, want {Role: row, More: 3}", more)
	}
	// Five data rows (the header row is not one of them) are all shown.
	o = build(doc(n("table", "Five", wrap(rows(5)...))))
	if got := len(o.Nodes[0].Children); got != 6 {
		t.Errorf("five rows and a header: %d nodes:\n%s", got, o.Text)
	}
	// List items of one shape collapse; controls never do.
	var items, boxes []*ax
	for i := range 7 {
		s := string(rune('a' + i))
		items = append(items, n("listitem", "", n("link", s).url("http://site.test/"+s)))
		boxes = append(boxes, field("textbox", "Field "+s, ""))
	}
	o = build(doc(append([]*ax{n("list", "", items...)}, boxes...)...))
	if !strings.Contains(o.Text, "  … 4 more listitems\n") || !strings.Contains(o.Text, `textbox [e10] "Field g"`) {
		t.Errorf("outline:\n%s", o.Text)
	}
	// Items of different shapes are not alike.
	mixed := []*ax{}
	for i := range 6 {
		if i%2 == 0 {
			mixed = append(mixed, n("listitem", "", text("plain")))
		} else {
			mixed = append(mixed, n("listitem", "", n("button", "b")))
		}
	}
	if o := build(doc(n("list", "", mixed...))); strings.Contains(o.Text, "more") {
		t.Errorf("unlike items collapsed:\n%s", o.Text)
	}
}

func TestBudgets(t *testing.T) {
	var many []*ax
	for range 10 {
		many = append(many, n("button", "Button"))
	}
	frames := doc(many...)

	o := opts(nil)
	o.MaxNodes = 4
	out := outline.Build(frames, o)
	if !out.Truncated || len(out.Nodes) != 4 || len(out.Elements) != 4 {
		t.Errorf("maxNodes 4: truncated %v, %d nodes, %d elements", out.Truncated, len(out.Nodes), len(out.Elements))
	}
	if !strings.HasSuffix(out.Text, "… truncated\n") {
		t.Errorf("truncated text does not say so:\n%s", out.Text)
	}

	o = opts(nil)
	o.MaxTextChars = 6*3 + 5 // three names fit, the fourth does not even in part
	out = outline.Build(frames, o)
	if !out.Truncated || len(out.Nodes) != 3 {
		t.Errorf("maxTextChars: truncated %v, %d nodes", out.Truncated, len(out.Nodes))
	}

	deep := n("button", "Deep")
	for range 5 {
		deep = n("list", "", n("listitem", "", deep))
	}
	o = opts(nil)
	o.MaxDepth = 4
	out = outline.Build(doc(deep, n("button", "After")), o)
	if !out.Truncated || strings.Contains(out.Text, "Deep") || !strings.Contains(out.Text, `button [e1] "After"`) {
		t.Errorf("maxDepth 4: truncated %v:\n%s", out.Truncated, out.Text)
	}

	out = build(doc(n("button", "Fits")))
	if out.Truncated {
		t.Errorf("an outline within budget is truncated")
	}
}

func TestLongNamesCut(t *testing.T) {
	long := strings.Repeat("é", 300)
	o := build(doc(n("button", long), text(long)))
	for _, name := range []string{o.Nodes[0].Name, o.Nodes[1].Text} {
		if r := []rune(name); len(r) != 200 || r[199] != '…' {
			t.Errorf("cut name has %d characters, ends %q", len(r), string(r[len(r)-1]))
		}
	}
}

func TestRefs(t *testing.T) {
	calls := map[dom.BackendNodeID]int{}
	o := outline.Build(doc(
		n("heading", "Title").level(1),
		n("button", "Save").be(1),
		text("Some text"),
		n("link", "Home").url("http://site.test/").be(2),
		field("textbox", "Name", "").be(3),
		n("checkbox", "Agree").checked("false").be(4),
		n("radio", "One").checked("true").be(5),
		n("switch", "Dark").checked("mixed").be(6),
		n("slider", "Volume").val(5).be(7),
		n("menu", "", n("menuitem", "Open").be(8)),
		n("tablist", "", n("tab", "First").be(9)),
		n("listbox", "Pick", n("option", "A", text("A")).be(10)),
		n("button", "Choose File").val("No file chosen").be(11),
		n("button", "Off").disabled().be(12),
		n("img", "Logo"),
		n("region", "Area", text("Inside")),
		n("alert", "", text("Failed")),
	), opts(calls))
	requireText(t, o,
		`heading[1] "Title"`,
		`button [e1] "Save"`,
		`text "Some text"`,
		`link [e2] "Home" -> /`,
		`textbox [e3] "Name"`,
		`checkbox [e4] "Agree" checked=false`,
		`radio [e5] "One" checked=true`,
		`switch [e6] "Dark" checked=mixed`,
		`slider [e7] "Volume"`,
		`menu`,
		`  menuitem [e8] "Open"`,
		`tablist`,
		`  tab [e9] "First"`,
		`listbox "Pick"`,
		`  option [e10] "A"`,
		`file [e11] "Choose File"`,
		`button [e12] "Off" disabled`,
		`img "Logo"`,
		`region "Area"`,
		`  text "Inside"`,
		`alert "Failed"`,
	)
	var backends []dom.BackendNodeID
	for i, e := range o.Elements {
		backends = append(backends, e.Backend)
		if want := "e" + string(rune('1'+i%9)); i < 9 && e.Ref != want {
			t.Errorf("element %d ref %q, want %q", i, e.Ref, want)
		}
	}
	if want := []dom.BackendNodeID{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}; !slices.Equal(backends, want) {
		t.Errorf("elements %v, want %v", backends, want)
	}
	for b, c := range calls {
		if c != 1 {
			t.Errorf("RefFor(%d) called %d times", b, c)
		}
	}
	if len(calls) != 12 {
		t.Errorf("RefFor called for %d elements, want 12", len(calls))
	}
	if e := o.Elements[11]; !e.Disabled || e.Name != "Off" || e.Role != "button" {
		t.Errorf("disabled element = %+v", e)
	}
	if e := o.Elements[10]; e.Role != "file" {
		t.Errorf("file input element role %q", e.Role)
	}
}

func TestSelect(t *testing.T) {
	sel := n("combobox", "Country", n("MenuListPopup", "",
		n("option", "Norway").prop("selected", false),
		n("option", "Sweden").prop("selected", true),
		n("group", "More", wrap(n("option", "Denmark").prop("selected", false))),
	)).val("Sweden").prop("hasPopup", "menu")
	var many []*ax
	for i := range 40 {
		many = append(many, n("option", "Option "+string(rune('A'+i))).prop("selected", i == 0))
	}
	big := n("combobox", "Long", n("MenuListPopup", "", many...)).prop("hasPopup", "menu")
	multi := n("listbox", "Toppings", wrap(
		n("option", "Cheese").prop("selected", true).prop("focusable", true),
		n("option", "Ham").prop("selected", false).prop("focusable", true),
		n("option", "Olives").prop("selected", true).prop("focusable", true),
	)).prop("invalid", "false").prop("focusable", true).prop("multiselectable", true)
	o := build(doc(sel, big, multi))
	if len(o.Nodes) != 3 || len(o.Nodes[0].Children) != 0 {
		t.Fatalf("selects are not single nodes:\n%s", o.Text)
	}
	if got := strings.Split(o.Text, "\n")[0]; got != `combobox [e1] "Country" selected="Sweden" options=["Norway","Sweden","Denmark"]` {
		t.Errorf("select line %s", got)
	}
	if opts := o.Nodes[1].Options; len(opts) != 31 || opts[30] != "… 10 more" {
		t.Errorf("40 options shown as %d, last %q", len(opts), opts[len(opts)-1])
	}
	if n := o.Nodes[2]; n.Role != "listbox" || n.Selected != "Cheese, Olives" || len(n.Options) != 3 || n.Ref == "" {
		t.Errorf("multiple select = %+v", n)
	}
}

func TestHref(t *testing.T) {
	o := build(doc(
		n("link", "Same").url("http://site.test/a/b?x=1#frag"),
		n("link", "Other").url("https://other.test:8443/p?token=SECRET#f"),
		n("link", "Creds").url("https://user:pw@other.test/"),
		n("link", "Mail").url("mailto:someone@site.test?subject=hi"),
		n("link", "Script").url("javascript:alert(1)"),
		n("link", "None"),
	))
	requireText(t, o,
		`link [e1] "Same" -> /a/b?x=1`,
		`link [e2] "Other" -> https://other.test:8443/p`,
		`link [e3] "Creds" -> https://other.test/`,
		`link [e4] "Mail" -> mailto:`,
		`link [e5] "Script" -> javascript:`,
		`link [e6] "None"`,
	)
	requireNoSecret(t, o, "SECRET", "pw@", "someone", "alert")
}

func TestIframe(t *testing.T) {
	main := frame(n("RootWebArea", "Main",
		n("heading", "Outer", text("Outer")).level(1),
		n("Iframe", "Payment").be(77),
		n("Iframe", "Not fetched").be(78),
	))
	child := frame(n("RootWebArea", "Inner", n("button", "Pay", text("Pay"))))
	child.Owner = 77
	stray := frame(n("RootWebArea", "Stray", n("button", "Lost")))
	stray.Owner = 99 // its <iframe> is not in the outline
	o := build([]outline.Frame{main, child, stray})
	requireText(t, o,
		`heading[1] "Outer"`,
		`iframe "Payment"`,
		`  button [e1] "Pay"`,
		`iframe "Not fetched"`,
	)
}

// TestIframeAcrossSessions: an out-of-process frame's backend ids are its own session's, so
// they may equal the main frame's; the frame is placed by its owner in the owner's session,
// and its elements keep their session.
func TestIframeAcrossSessions(t *testing.T) {
	main := frame(n("RootWebArea", "Main",
		n("button", "Outer").be(5),
		n("Iframe", "Remote").be(77),
	))
	remote := frame(n("RootWebArea", "Remote page", n("button", "Inner").be(5), n("Iframe", "Nested").be(77)))
	remote.Session, remote.OwnerSession, remote.Owner = "F1", "", 77
	nested := frame(n("RootWebArea", "Nested page", n("link", "Deep").be(5)))
	nested.Session, nested.OwnerSession, nested.Owner = "F2", "F1", 77
	// A frame claiming an owner id that exists only in another session is not placed there.
	wrong := frame(n("RootWebArea", "Wrong", n("button", "Misplaced").be(6)))
	wrong.Session, wrong.OwnerSession, wrong.Owner = "F3", "F2", 5
	o := build([]outline.Frame{main, remote, nested, wrong})
	requireText(t, o,
		`button [e1] "Outer"`,
		`iframe "Remote"`,
		`  button [e2] "Inner"`,
		`  iframe "Nested"`,
		`    link [e3] "Deep"`,
	)
	want := []outline.NodeKey{{Session: "", Backend: 5}, {Session: "F1", Backend: 5}, {Session: "F2", Backend: 5}}
	if len(o.Elements) != len(want) {
		t.Fatalf("elements %+v", o.Elements)
	}
	for i, e := range o.Elements {
		if e.Key() != want[i] {
			t.Errorf("element %d key %+v, want %+v", i, e.Key(), want[i])
		}
	}
	if found := outline.Find([]outline.Frame{main, remote, nested}, "button", "Inner", true); len(found) != 1 || found[0].Session != "F1" {
		t.Errorf("Find Inner = %+v", found)
	}
}

func TestTextRuns(t *testing.T) {
	o := build(doc(
		n("paragraph", "", text("Hello "), text("bold"), text(" and "), n("link", "a link").url("http://site.test/l"), text(" tail.")),
		n("paragraph", "", text("Saves: "), n("generic", "", text("3"))),
		n("paragraph", "", text("   ")),
		n("list", "",
			n("listitem", "", n("ListMarker", "• "), text("Only text")),
			n("listitem", "", text("Row A "), n("button", "Delete"))),
		n("status", ""),
	))
	requireText(t, o,
		`text "Hello bold and"`,
		`link [e1] "a link" -> /l`,
		`text "tail."`,
		`text "Saves: 3"`,
		`list`,
		`  listitem "Only text"`,
		`  listitem "Row A"`,
		`    button [e2] "Delete"`,
		`status`,
	)
}

func TestMalformedTrees(t *testing.T) {
	// A child id that does not exist, a cycle, and an empty frame are survived.
	nodes := flatten(n("RootWebArea", "", n("button", "Ok")))
	nodes[0].ChildIDs = append(nodes[0].ChildIDs, "missing", nodes[0].NodeID)
	o := build([]outline.Frame{{Nodes: nodes}, {}})
	requireText(t, o, `button [e1] "Ok"`)
	if o := build(nil); o.Text != "" || len(o.Nodes) != 0 || o.Truncated {
		t.Errorf("no frames: %+v", o)
	}
}

func TestFind(t *testing.T) {
	var items []*ax
	for i := range 8 {
		items = append(items, n("listitem", "", n("button", "Delete").be(dom.BackendNodeID(100+i))))
	}
	frames := doc(
		n("list", "", items...),
		n("button", "Save draft").be(1),
		n("button", "Save").be(2).disabled(),
		n("button", "  Save  ").be(3),
		field("textbox", "Password", "••••").be(4),
		n("button", "Choose File").val("No file chosen").be(5),
		n("heading", "Save").level(1).be(6), // not actionable
	)
	backends := func(es []outline.Element) []dom.BackendNodeID {
		var out []dom.BackendNodeID
		for _, e := range es {
			out = append(out, e.Backend)
		}
		return out
	}
	for _, c := range []struct {
		role, name string
		exact      bool
		want       []dom.BackendNodeID
	}{
		{"button", "Save", true, []dom.BackendNodeID{2, 3}},
		{"button", " save ", false, []dom.BackendNodeID{1, 2, 3}},
		{"button", "SAVE   DRAFT", false, []dom.BackendNodeID{1}},
		{"button", "Delete", true, []dom.BackendNodeID{100, 101, 102, 103, 104, 105, 106, 107}}, // collapsed in Build, found here
		{"textbox", "Password", true, []dom.BackendNodeID{4}},
		{"password", "Password", true, []dom.BackendNodeID{4}},
		{"button", "Choose File", true, []dom.BackendNodeID{5}},
		{"file", "choose", false, []dom.BackendNodeID{5}},
		{"heading", "Save", true, nil},
		{"link", "Save", false, nil},
	} {
		if got := backends(outline.Find(frames, c.role, c.name, c.exact)); !slices.Equal(got, c.want) {
			t.Errorf("Find(%q, %q, %v) = %v, want %v", c.role, c.name, c.exact, got, c.want)
		}
	}
	if e := outline.Find(frames, "button", "Save", true)[0]; !e.Disabled || e.Ref != "" || e.Role != "button" {
		t.Errorf("found %+v", e)
	}
}

func TestClassify(t *testing.T) {
	normal := build(doc(n("heading", "Welcome", text("Welcome")).level(1), n("button", "Go")))
	login := build(doc(field("textbox", "Password", "").be(9)))
	// The password field is known from the DOM here: it is empty, so Chromium shows no mask.
	loginFrames := doc(field("textbox", "Password", "").be(9))
	loginFrames[0].Passwords = []dom.BackendNodeID{9}
	loginKnown := build(loginFrames)
	challenge := build(doc(n("heading", "Checking your   browser before accessing", text("x")).level(1)))
	robot := build(doc(n("checkbox", "I’m not a robot").checked("false")))
	textOnly := build(doc(text("Please complete the CAPTCHA to continue")))
	for _, c := range []struct {
		name   string
		o      outline.Outline
		title  string
		status int
		want   string
	}{
		{"normal", normal, "Home", 200, transport.PageNormal},
		{"http error beats all", challenge, "Just a moment...", 503, transport.PageHTTPError},
		{"404", normal, "Not found", 404, transport.PageHTTPError},
		{"title", normal, "Just a moment...", 200, transport.PageBotCheck},
		{"attention title", normal, "Attention Required! | Site", 200, transport.PageBotCheck},
		{"heading", challenge, "Site", 200, transport.PageBotCheck},
		{"robot checkbox", robot, "Site", 200, transport.PageBotCheck},
		{"text", textOnly, "Site", 200, transport.PageBotCheck},
		{"empty password field unknown to the DOM", login, "Sign in", 200, transport.PageNormal},
		{"password field", loginKnown, "Sign in", 200, transport.PageLogin},
		{"401 sign-in form", loginKnown, "Sign in", 401, transport.PageLogin},
		{"403 with a password field", loginKnown, "Sign in", 403, transport.PageHTTPError},
		{"401 without a form", normal, "Unauthorized", 401, transport.PageHTTPError},
		{"hand-built", outline.Outline{Nodes: []transport.OutlineNode{{Role: "password", Name: "PIN"}}}, "x", 0, transport.PageLogin},
		{"bot check beats login", outline.Outline{Nodes: []transport.OutlineNode{{Role: "password"}, {Role: "heading", Name: "Are you a robot?"}}}, "x", 200, transport.PageBotCheck},
	} {
		if got := outline.Classify(c.o, c.title, c.status); got != c.want {
			t.Errorf("%s: Classify = %q, want %q", c.name, got, c.want)
		}
	}
	// Classification sees the whole page, not only what the budget let through.
	o := opts(nil)
	o.MaxNodes = 1
	frames := doc(n("button", "First"), field("textbox", "Password", "").be(9))
	frames[0].Passwords = []dom.BackendNodeID{9}
	cut := outline.Build(frames, o)
	if got := outline.Classify(cut, "Sign in", 200); !cut.Truncated || got != transport.PageLogin {
		t.Errorf("truncated outline: %q (truncated %v)", got, cut.Truncated)
	}
}
