package transport

import "testing"

// TestTabResultColumn: a row names a TabResult exactly when its result gives a tab
// (implements TabResult), so a scenario tab reference the parser accepts always resolves.
func TestTabResultColumn(t *testing.T) {
	for _, s := range Ops() {
		_, gives := NewResult(s.New()).(TabResult)
		switch {
		case s.TabResult != "" && !gives:
			t.Errorf("%s: the table names tab result %q but %T has no ResultTab", s.Name, s.TabResult, NewResult(s.New()))
		case s.TabResult == "" && gives:
			t.Errorf("%s: %T gives a tab but the row names no TabResult", s.Name, NewResult(s.New()))
		}
	}
	listed := &ListTabsResult{Tabs: []TabInfo{{Tab: "a"}, {Tab: "b"}}}
	if tab, ok := listed.ResultTab(1); tab != "b" || !ok {
		t.Errorf("listTabs index 1: %q %v", tab, ok)
	}
	if tab, ok := listed.ResultTab(2); tab != "" || ok {
		t.Errorf("listTabs past its end: %q %v", tab, ok)
	}
}
