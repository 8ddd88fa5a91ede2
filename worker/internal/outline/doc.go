// Package outline turns Chromium accessibility trees into fastbrowser's page outline: the
// bounded, compact view of a page that observe returns, with a ref on every element an
// action can target. It owns the rules of what the outline shows and how (Build), how
// act's role-and-name targets are matched (Find) and how a page is classified (Classify).
// It makes no CDP calls and does no I/O: the worker fetches one Accessibility.getFullAXTree
// per frame and hands them over as Frames.
//
// # Never a value
//
// No input value reaches an outline: not a text field's, not a password field's (Chromium
// 156 reports a password's value masked with bullets; some versions reported it in clear),
// not a file input's chosen file, not a slider's or date's. Fields are outlined by role and label only
// and their subtrees (where Chromium repeats the value as text) are never entered; names
// that Chromium computed from contents or labels holding a field (a table cell or a button
// wrapping an <input> is named after the input's text) are recomputed without it. A select's
// chosen option label is shown: it is one of the choices the page offers, not typed input.
//
// # What is kept
//
// Ignored nodes and wrappers (generic, none, presentation, paragraph, label, layout tables,
// and any role not listed below) are hoisted: their children take their place. Kept are
// headings (with level), text fields (textbox, searchbox, spinbutton, editable combobox,
// date, time, color, contenteditable content as textbox; a password field as "password"),
// selects (one combobox or listbox node with the chosen label and up to 30 option labels;
// a longer list ends in "… N more"), checkboxes, radios and switches (checked), buttons,
// <summary> as a button, file inputs (role "file"), links (href), sliders, tabs, menu items,
// tree items, ARIA listbox options, live regions (alert, status, log: kept even when empty,
// their text on their line), tables (a row is one node named by its cells' text joined with
// " | "; what a cell holds beyond text becomes the row's children), lists and list items
// (an item's leading text on its line), images with a name (role "img"), static text,
// landmarks (main, banner, navigation, complementary, contentinfo, search; region, form,
// group, radiogroup and toolbar only when named), articles, dialogs, menus, tab lists,
// trees, and iframes holding their child frame's outline.
//
// Text is compacted: white space folded; adjacent text of one paragraph, heading, list item,
// cell or link joined into one line; text that only repeats its parent's name (a button's
// or heading's own text, a table's caption) and label text that is a control's name dropped.
//
// # Order, runs and budgets
//
// The main frame's top-level banner, navigation, complementary and contentinfo landmarks
// come after the rest of the page, in that order, so a budget cuts menus and footers before
// content. A run of more than five alike siblings (same role among row, listitem, article,
// treeitem, option and menuitem, and the same shape of descendants) shows the first three
// and one node {Role: role, More: rest}; a header row differs from data rows. Controls and
// text never collapse. Find sees every element, collapsed or cut by a budget.
//
// MaxNodes counts emitted nodes, MaxDepth the nesting (top level is depth 1; deeper levels
// are dropped and the outline goes on), MaxTextChars the characters of names, texts,
// selected labels and option labels. A node that does not fit in the node or text budget
// ends the outline; no node is emitted in part. Each name, text and label is cut to 200
// characters, the last being "…", by Options.Clip (Lookup's clip for the names it finds):
// the worker's masks the session's typed secrets first, so no cut splits one. Either budget
// reached sets Truncated.
//
// # Refs
//
// Every emitted element an action can target gets a ref from Options.RefFor, called once
// per element in output order: button (and summary), link, textbox, password, searchbox,
// spinbutton, combobox, listbox (select), date/time/color inputs, checkbox, radio, switch,
// slider, menuitem (and its checkbox and radio kinds), tab, treeitem, option of an ARIA
// listbox, and file input. Disabled elements keep their ref and say disabled. Elements lists
// them in the same order.
//
// # Text form
//
// One line per node, two spaces of indent per level:
//
//	heading[1] "Controls"
//	textbox [e3] "Full name"
//	password [e4] "Password"
//	combobox [e5] "Country" selected="Sweden" options=["Norway","Sweden","Denmark"]
//	checkbox [e6] "Subscribe" checked=false
//	file [e7] "Resume"
//	button [e8] "Save"
//	button [e9] "Disabled action" disabled
//	textbox [e10] "Email" required
//	link [e11] "Back home" -> /
//	link [e12] "Docs" -> https://docs.example/guide
//	status "Saved"
//	table "Orders"
//	  row: Order | Customer | Total
//	  row: Order 1 | Customer 1 | 1.00
//	  … 47 more rows
//	list
//	  listitem "Row A"
//	    button [e13] "Delete"
//	iframe "Payment"
//	  button [e14] "Pay"
//	text "Some paragraph text"
//	… truncated
//
// A line is the role ([level] for a heading), the ref in brackets ([e3]), the quoted name, the quoted text,
// then selected=, options=[…], checked=, "-> href", required and disabled as they apply.
// Quoting is Go's (strconv.Quote). A table row is "row: " and its cells; a summarised run is
// "… N more <role>s"; a truncated outline ends with the line "… truncated". A link on the
// page's origin shows its path and query; elsewhere its origin and path (never a query or a
// fragment, never user info); another scheme only the scheme ("mailto:").
package outline
