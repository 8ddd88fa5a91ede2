package outline

import "github.com/mafredri/cdp/protocol/accessibility"

// How each Chromium role is treated. Chromium 156 reports ARIA roles for most nodes and its
// own internal role names for the rest (RootWebArea, StaticText, LabelText, Iframe, …).
// A role not listed here is a wrapper: its children are hoisted into its parent.

type kind int

const (
	kindWrapper   kind = iota // hoisted away: its children take its place
	kindDrop                  // left out with its subtree
	kindText                  // StaticText
	kindField                 // a control holding typed input: never descended into, value never read
	kindLeaf                  // an actionable control whose children are presentational
	kindActionBox             // an actionable element whose children are still outlined (link, menuitem)
	kindHeading               // kept with its level; text repeating its name dropped
	kindImage                 // kept when named
	kindContainer             // kept around its children (lists and menus only when not empty)
	kindNamedBox              // kept only when named (region, form, group, …)
	kindLive                  // alert, status, log: kept even when empty, text folded in
	kindTable                 // kept when not empty
	kindRow                   // one node named by its cells' text
	kindSelect                // combobox or listbox; decided by its children
	kindFrame                 // an iframe: the child frame's outline goes inside
	kindLabel                 // LabelText: a wrapper whose text repeats a control's name
)

var kinds = map[string]kind{
	"InlineTextBox": kindDrop, "ListMarker": kindDrop, "LineBreak": kindDrop, "separator": kindDrop,
	"scrollbar": kindDrop, "MenuListPopup": kindDrop, "progressbar": kindDrop, "meter": kindDrop,

	"StaticText": kindText,

	"textbox": kindField, "searchbox": kindField, "spinbutton": kindField,
	"Date": kindField, "DateTime": kindField, "InputTime": kindField, "ColorWell": kindField,

	"button": kindLeaf, "DisclosureTriangle": kindLeaf, "checkbox": kindLeaf, "radio": kindLeaf,
	"switch": kindLeaf, "slider": kindLeaf, "menuitemcheckbox": kindLeaf, "menuitemradio": kindLeaf,
	"tab": kindLeaf, "option": kindLeaf,

	"link": kindActionBox, "menuitem": kindActionBox, "treeitem": kindActionBox,

	"heading": kindHeading,
	"image":   kindImage, "img": kindImage,

	"main": kindContainer, "banner": kindContainer, "navigation": kindContainer,
	"complementary": kindContainer, "contentinfo": kindContainer, "search": kindContainer,
	"article": kindContainer, "dialog": kindContainer, "alertdialog": kindContainer,
	"list": kindContainer, "listitem": kindContainer, "directory": kindContainer,
	"menu": kindContainer, "menubar": kindContainer, "tablist": kindContainer, "tree": kindContainer,

	"region": kindNamedBox, "form": kindNamedBox, "group": kindNamedBox, "radiogroup": kindNamedBox,
	"toolbar": kindNamedBox,

	"alert": kindLive, "status": kindLive, "log": kindLive, "marquee": kindLive, "timer": kindLive,

	"table": kindTable, "grid": kindTable, "treegrid": kindTable,
	"row": kindRow,

	"combobox": kindSelect, "listbox": kindSelect,

	"Iframe": kindFrame, "IframePresentational": kindFrame,

	"LabelText": kindLabel,
}

// outlineRoles are the roles the outline shows for Chromium roles that are not ARIA roles or
// that ARIA spells differently; any other role is shown as Chromium reports it.
var outlineRoles = map[string]string{
	"image":                "img",
	"DisclosureTriangle":   "button", // <summary>: clicking it opens its <details>
	"Iframe":               "iframe",
	"IframePresentational": "iframe",
	"Date":                 "date",
	"DateTime":             "datetime",
	"InputTime":            "time",
	"ColorWell":            "color",
	"directory":            "list",
}

// RoleName is the outline's name for a role the accessibility tree gives (what the outline
// would show for the node), for an element found by other means than its role.
func RoleName(axRole string) string { return outlineRole(axRole) }

func outlineRole(r string) string {
	if o, ok := outlineRoles[r]; ok {
		return o
	}
	return r
}

// Roles that Find's role argument matches besides their own: a password field is still a
// textbox and a file input a button, so {"role":"textbox","name":"Password"} works.
var roleAliases = map[string][]string{
	"textbox": {"password"},
	"button":  {"file"},
	"img":     {"image"},
	"image":   {"img"},
}

// landmarkOrder lists the top-level landmarks that go after the page's own content, in
// this order, so a budget cuts menus and footers before content.
var landmarkOrder = []string{"banner", "navigation", "complementary", "contentinfo"}

// collapsible roles are the repeated-record roles whose long runs are summarised.
var collapsible = map[string]bool{
	"row": true, "listitem": true, "article": true, "treeitem": true, "option": true, "menuitem": true,
}

// roleOf decodes a role and its kind. Known roles come from the kinds table without an
// allocation (a map index with string(bytes) does not copy), which matters on big pages.
func roleOf(v *accessibility.AXValue) (string, kind) {
	if v != nil && len(v.Value) >= 2 && v.Value[0] == '"' {
		if r, ok := knownRoles[string(v.Value[1:len(v.Value)-1])]; ok {
			return r, kinds[r]
		}
	}
	r := valueString(v)
	return r, kinds[r]
}

// knownRoles interns the roles of the kinds table and the common wrappers.
var knownRoles = func() map[string]string {
	m := map[string]string{}
	for r := range kinds {
		m[r] = r
	}
	for _, r := range []string{"none", "generic", "presentation", "paragraph", "RootWebArea", "LayoutTable",
		"LayoutTableRow", "LayoutTableCell", "cell", "gridcell", "columnheader", "rowheader", "caption",
		"rowgroup", "Section", "strong", "emphasis", "code", "time", "figure", "blockquote"} {
		m[r] = r
	}
	return m
}()
