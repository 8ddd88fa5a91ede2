package transport

import (
	"unicode/utf8"

	"github.com/fastbrowser/fastbrowser/budgets"
)

// maxTabLen bounds a tab handle; handles are short opaque strings.
const maxTabLen = 128

func checkTab(op, path, tab string, required bool) error {
	if tab == "" {
		if required {
			return Invalid(op, path, "a tab handle is required")
		}
		return nil
	}
	if len(tab) > maxTabLen {
		return Invalid(op, path, "tab handle longer than %d bytes", maxTabLen)
	}
	return nil
}

func (r Navigate) Validate() error {
	if err := checkTab(OpNavigate, "request.tab", r.Tab, false); err != nil {
		return err
	}
	if r.URL == "" {
		return Invalid(OpNavigate, "request.url", "expected an http(s) URL, got an empty string")
	}
	if len(r.URL) > budgets.URLBytes {
		return Invalid(OpNavigate, "request.url", "URL longer than %d bytes", budgets.URLBytes)
	}
	return nil
}

func (r Reload) Validate() error { return checkTab(OpReload, "request.tab", r.Tab, false) }
func (r Read) Validate() error   { return checkTab(OpRead, "request.tab", r.Tab, false) }

func (r Assert) Validate() error {
	if err := checkTab(OpAssert, "request.tab", r.Tab, false); err != nil {
		return err
	}
	switch r.Kind {
	case AssertURL, AssertOrigin, AssertTitle, AssertTitleContains, AssertTextContains:
	default:
		return Invalid(OpAssert, "request.kind", "expected one of url, origin, title, titleContains, textContains")
	}
	if r.Value == "" && r.Kind != AssertTitle {
		return Invalid(OpAssert, "request.value", "expected a non-empty string")
	}
	if utf8.RuneCountInString(r.Value) > budgets.AssertValueChars {
		return Invalid(OpAssert, "request.value", "value longer than %d characters", budgets.AssertValueChars)
	}
	switch r.Wait {
	case "", WaitBounded, WaitNone:
	default:
		return Invalid(OpAssert, "request.wait", "expected \"bounded\" or \"none\"")
	}
	return nil
}

func (r ListTabs) Validate() error {
	if r.Select == nil {
		return nil
	}
	switch r.Select.Kind {
	case "origin":
		if r.Select.Origin == "" {
			return Invalid(OpListTabs, "request.select.origin", "expected an exact origin")
		}
		if r.Select.Index != nil {
			return Invalid(OpListTabs, "request.select.index", "index goes with kind \"index\", not \"origin\"")
		}
	case "index":
		if r.Select.Index == nil {
			return Invalid(OpListTabs, "request.select.index", "expected an integer 0–%d", budgets.ListTabsMax-1)
		}
		if i := *r.Select.Index; i < 0 || i >= budgets.ListTabsMax {
			return Invalid(OpListTabs, "request.select.index", "expected an integer 0–%d", budgets.ListTabsMax-1)
		}
		if r.Select.Origin != "" {
			return Invalid(OpListTabs, "request.select.origin", "origin goes with kind \"origin\", not \"index\"")
		}
	default:
		return Invalid(OpListTabs, "request.select.kind", "expected \"origin\" or \"index\"")
	}
	return nil
}

func (r SelectTab) Validate() error { return checkTab(OpSelectTab, "request.tab", r.Tab, true) }
func (r CloseTab) Validate() error  { return checkTab(OpCloseTab, "request.tab", r.Tab, true) }
func (Close) Validate() error       { return nil }
